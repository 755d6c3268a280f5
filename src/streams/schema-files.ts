/**
 * The checked-in files under schemas/, generated from the table definitions (never hand-edited):
 * the DuckDB DDL of the whole warehouse with its documentation, macros and views, and the data
 * dictionary. `npm run generate` writes them (scripts/generated-files.ts).
 */
import { bookkeepingTables } from '../core/bookkeeping.js';
import { commentsSql, createTableSql } from '../core/ddl.js';
import { dictionaryMarkdown } from '../core/dictionary.js';
import type { AnyTable } from '../core/table.js';
import { definitionsSql, viewsOver } from '../core/warehouse-views.js';
import { analystDefinitions } from './analyst-views.js';
import { dataTables } from './index.js';

/** Folder of the generated files, relative to the project root. */
export const SCHEMAS_DIR = 'schemas';

const NOTICE = 'Generated from the table definitions in src/ by renderSchemaFiles() (src/streams/schema-files.ts); do not edit. Regenerate with `npm run generate`.';

/** Every table of the warehouse in creation order: stream tables, the addresses dimension, bookkeeping. */
export const warehouseTables: readonly AnyTable[] = [...dataTables, ...bookkeepingTables];

/** File name (within schemas/) → content. */
export function renderSchemaFiles(): Map<string, string> {
  return new Map([
    ['warehouse.sql', warehouseSql()],
    ['DATA_DICTIONARY.md', dictionary()],
  ]);
}

function warehouseSql(): string {
  const parts = [`-- chain-etl warehouse (DuckDB): tables, documentation and views.\n-- ${NOTICE}`];
  for (const table of warehouseTables) parts.push(`${createTableSql(table)}\n${commentsSql(table)}`);
  parts.push(definitionsSql(analystDefinitions, new Set(warehouseTables.map((table) => table.name))));
  return `${parts.join('\n\n')}\n`;
}

const row = (name: string, doc: string): string => `| ${name} | ${doc.replaceAll('|', '\\|')} |`;

function dictionary(): string {
  const lines = [`<!-- ${NOTICE} -->`, '', dictionaryMarkdown(warehouseTables).trimEnd(), '', '## Views', '', '| view | what it shows |', '|---|---|'];
  for (const view of viewsOver(analystDefinitions, new Set(warehouseTables.map((table) => table.name)))) lines.push(row(view.name, view.doc));
  lines.push('', '## Macros', '', '| macro | what it computes |', '|---|---|');
  for (const macro of analystDefinitions.macros) lines.push(row(`${macro.name}(${macro.parameters.join(', ')})`, macro.doc));
  return `${lines.join('\n')}\n`;
}
