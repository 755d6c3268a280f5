/**
 * What a warehouse defines beside its tables for analysts: macros (`ton()`) and views over the
 * tables. Every sync creates them in a DuckDB warehouse, a Parquet warehouse carries them in its
 * `views.sql`, and `chain-etl query` defines them in its session (docs/design.md §4).
 */
import { etlCheckpoints, etlMeta } from './bookkeeping.js';
import { quotedIdentifier, quotedString } from './sql-quote.js';
import type { AnyTable } from './table.js';

/** A scalar macro: `name(parameters) AS body`. */
export interface MacroDefinition {
  readonly name: string;
  /** What it computes; becomes its COMMENT and its dictionary entry. */
  readonly doc: string;
  readonly parameters: readonly string[];
  readonly body: string;
}

/**
 * Where a warehouse keeps its own records, as relations a view reads: `checkpoints` with the columns
 * `stream` and `position` of `_etl_checkpoints`, `meta` with `key` and `value` of `_etl_meta`.
 * DuckDB's are its bookkeeping tables, read live; a Parquet warehouse's are in its manifest, inlined
 * as values where its views are written (docs/design.md §4).
 */
export interface WarehouseRecords {
  readonly checkpoints: string;
  readonly meta: string;
}

/** The records of a DuckDB warehouse: its bookkeeping tables. */
export const BOOKKEEPING_RECORDS: WarehouseRecords = { checkpoints: quotedIdentifier(etlCheckpoints.name), meta: quotedIdentifier(etlMeta.name) };

/** What a view's query may be made from: the tables the warehouse holds, and its records. */
export interface ViewScope {
  readonly tables: ReadonlySet<string>;
  readonly records: WarehouseRecords;
}

/** A view over the tables. */
export interface ViewDefinition {
  readonly name: string;
  /** What one row is; becomes the view's COMMENT and its dictionary entry. */
  readonly doc: string;
  /** The tables its query reads: it is defined only where all of them are. */
  readonly reads: readonly AnyTable[];
  /** Its query; made per warehouse where it reads whichever tables are there and the records (`_etl_days`). */
  readonly select: string | ((scope: ViewScope) => string);
}

export interface AnalystDefinitions {
  readonly macros: readonly MacroDefinition[];
  readonly views: readonly ViewDefinition[];
}

/** No macro and no view: a warehouse read or written without the analysts' definitions. */
export const NO_DEFINITIONS: AnalystDefinitions = { macros: [], views: [] };

/** How `definitionsSql` renders. */
export interface DefinitionsSqlOptions {
  /** Connection-local TEMP objects, without comments (a read-only database takes no others). @default false */
  readonly temporary?: boolean;
  /** Only the views and macros whose names are not in this set (those a read-only database lacks). @default none left out */
  readonly except?: ReadonlySet<string>;
  /** Where the views read the warehouse's records. @default BOOKKEEPING_RECORDS */
  readonly records?: WarehouseRecords;
}

/**
 * `CREATE OR REPLACE` statements for the macros, then the views whose tables are all in `tables`
 * (a DuckDB view is bound when created, so one over a missing table fails), each with its COMMENT.
 */
export function definitionsSql(definitions: AnalystDefinitions, tables: ReadonlySet<string>, options: DefinitionsSqlOptions = {}): string {
  const temp = options.temporary === true ? 'TEMP ' : '';
  const wanted = <T extends { readonly name: string }>(items: readonly T[]): T[] => items.filter((item) => !options.except?.has(item.name));
  const statements: string[] = [];
  const comment = (kind: string, name: string, doc: string): void => {
    if (options.temporary !== true) statements.push(`COMMENT ON ${kind} ${name} IS ${quotedString(doc)};`);
  };
  for (const macro of wanted(definitions.macros)) {
    const name = quotedIdentifier(macro.name);
    statements.push(`CREATE OR REPLACE ${temp}MACRO ${name}(${macro.parameters.join(', ')}) AS ${macro.body};`);
    comment('MACRO', name, macro.doc);
  }
  const scope: ViewScope = { tables, records: options.records ?? BOOKKEEPING_RECORDS };
  for (const view of wanted(viewsOver(definitions, tables))) {
    const name = quotedIdentifier(view.name);
    const select = typeof view.select === 'string' ? view.select : view.select(scope);
    statements.push(`CREATE OR REPLACE ${temp}VIEW ${name} AS\n${select};`);
    comment('VIEW', name, view.doc);
  }
  return statements.join('\n');
}

/**
 * The views of `definitions` whose tables are all in `tables`; of definitions sharing a name, the
 * first that can be defined (a richer form of a view where the tables it joins are there).
 */
export function viewsOver(definitions: AnalystDefinitions, tables: ReadonlySet<string>): ViewDefinition[] {
  const possible = definitions.views.filter((view) => view.reads.every((table) => tables.has(table.name)));
  return possible.filter((view, index) => possible.findIndex((other) => other.name === view.name) === index);
}
