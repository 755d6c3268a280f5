import type { AnyKind, ValueOf } from './column-kind.js';
import { TableDefinitionError } from './schema-errors.js';

/** Column name → kind. Key order is column order. */
export type Columns = Readonly<Record<string, AnyKind>>;

/** The row type a set of columns declares. */
export type RowOfColumns<C extends Columns> = { readonly [K in keyof C]: ValueOf<C[K]> };

/** Any table definition, whatever its columns; what sinks and generators take. */
export interface AnyTable {
  /** Table name (lower snake case); also the Parquet folder name. */
  readonly name: string;
  /** What one row is, for the data dictionary. */
  readonly doc: string;
  /** Columns in table order. */
  readonly columns: Columns;
  /** Columns identifying a row; a commit upserts by them. */
  readonly primaryKey: readonly string[];
  /**
   * Enforce the primary key in DuckDB with a PRIMARY KEY constraint, i.e. a unique ART index. For
   * small tables only: DuckDB keeps such an index whole in memory and rewrites it at every
   * checkpoint, so on a table that grows with the chain both memory and commit cost would grow with
   * the warehouse (docs/design.md §4). Without it the key stays unique because every sink deletes a
   * key's rows before inserting them. @default false
   */
  readonly keyIndex?: boolean;
  /**
   * Day of the row's Hive partition (`date=YYYY-MM-DD`, UTC) in Parquet. Must be the same for every
   * row sharing a primary key or a `replaceBy` value. No partitioning when absent.
   */
  partitionBy?(row: Readonly<Record<string, unknown>>): string;
  /** Column whose values are replaced as a unit: a commit deletes every row holding one of them first. */
  readonly replaceBy?: string;
  /**
   * Integer column (e.g. `lt`) that Parquet files are sorted by and whose per-file range lets the
   * Parquet sink skip files that cannot hold a replayed key. Must be the same for every row sharing
   * a primary key or a `replaceBy` value.
   */
  readonly clusterBy?: string;
  /**
   * The column whose UTC day `block_date` is: the row's main time (`tx_time`; `election_id`, unix
   * seconds, for elections). Every table with a `block_date` declares it, and only those: `_etl_days`
   * places an lt stream's rows in time by it (docs/design.md §4).
   */
  readonly dayOf?: string;
  /** Column names in table order. */
  readonly columnNames: readonly string[];
}

/** What `defineTable` takes: an `AnyTable` typed by its columns, without `columnNames`. */
export interface TableSpec<C extends Columns> extends Omit<AnyTable, 'columnNames' | 'partitionBy'> {
  readonly columns: C;
  readonly primaryKey: readonly (keyof C & string)[];
  partitionBy?(row: RowOfColumns<C>): string;
  readonly replaceBy?: keyof C & string;
  readonly clusterBy?: keyof C & string;
  readonly dayOf?: keyof C & string;
}

/** A table definition: the only list of its columns anywhere. */
export interface TableDef<C extends Columns = Columns> extends TableSpec<C> {
  readonly columnNames: readonly (keyof C & string)[];
}

/** The row type of a table definition. */
export type RowOf<T> = T extends TableDef<infer C> ? RowOfColumns<C> : never;

/** A row as a sink receives it; each value is checked against its column's kind. */
export type Row = Readonly<Record<string, unknown>>;

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const CLUSTER_KINDS = new Set(['int32', 'int64', 'logicalTime', 'uint64']);
/** The Hive partition column Parquet readers add; a partitioned table cannot have its own. */
export const PARTITION_COLUMN = 'date';
/** The UTC day of a fact table's main time (docs/design.md §9), named by `dayOf`. */
export const BLOCK_DATE_COLUMN = 'block_date';

/** Declares a table once; DDL, row type, dictionary and sinks derive from the result. */
export function defineTable<const C extends Columns>(spec: TableSpec<C>): TableDef<C> {
  const columnNames = Object.keys(spec.columns) as (keyof C & string)[];
  const fail = (what: string): never => {
    throw new TableDefinitionError(`Table ${JSON.stringify(spec.name)}: ${what}`);
  };
  if (!IDENTIFIER.test(spec.name)) fail('the name must be lower snake case ([a-z_][a-z0-9_]*)');
  if (columnNames.length === 0) fail('expected at least one column');
  for (const name of columnNames) {
    if (!IDENTIFIER.test(name)) fail(`column ${JSON.stringify(name)} must be lower snake case`);
  }
  if (spec.primaryKey.length === 0) fail('expected a primary key of at least one column');
  const isColumn = (name: string): boolean => columnNames.includes(name);
  for (const key of spec.primaryKey) {
    if (!isColumn(key)) fail(`primary key column ${key} is not a column`);
    if (spec.columns[key]?.isNullable) fail(`primary key column ${key} must not be nullable`);
  }
  if (new Set(spec.primaryKey).size !== spec.primaryKey.length) fail('primary key repeats a column');
  if (spec.replaceBy !== undefined && !isColumn(spec.replaceBy)) {
    fail(`replaceBy column ${spec.replaceBy} is not a column`);
  }
  if (spec.clusterBy !== undefined) {
    const kind = spec.columns[spec.clusterBy];
    if (kind === undefined) fail(`clusterBy column ${spec.clusterBy} is not a column`);
    else if (!CLUSTER_KINDS.has(kind.kind) || kind.isNullable) {
      fail(`clusterBy column ${spec.clusterBy} must be a non-null int32, int64, logicalTime or uint64, got ${kind.kind}`);
    }
  }
  if (isColumn(BLOCK_DATE_COLUMN) !== (spec.dayOf !== undefined)) {
    fail(spec.dayOf === undefined ? `a table with ${BLOCK_DATE_COLUMN} declares dayOf, the column it is the UTC day of` : `dayOf needs a ${BLOCK_DATE_COLUMN} column`);
  }
  if (spec.dayOf !== undefined && !isColumn(spec.dayOf)) fail(`dayOf column ${spec.dayOf} is not a column`);
  if (spec.partitionBy !== undefined && isColumn(PARTITION_COLUMN)) {
    fail(`a partitioned table cannot have a column named ${PARTITION_COLUMN} (Hive adds it)`);
  }
  return { ...spec, columnNames };
}
