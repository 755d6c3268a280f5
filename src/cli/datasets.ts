/**
 * `datasets`: every stream with its endpoint, filters and tables, each table with its columns, types
 * and docs, read from the stream registry (as cryo's `help datasets` does). Text by default; with
 * `--json` one document of a stable shape (README "Datasets"). Needs no pipeline, key or network.
 */
import { z } from 'zod';
import type { CommandModule } from 'yargs';
import { describeOptions } from '../config/describe.js';
import { ConfigError } from '../core/errors.js';
import { byKind, type AnyStream } from '../core/stream.js';
import type { AnyTable } from '../core/table.js';
import { unknownName } from '../options/suggest.js';
import { STREAM_NAMES, allStreams, streamByName } from '../streams/index.js';

interface DatasetsArgs {
  streams: string[];
  json: boolean;
}

/** One stream as `--json` prints it. */
export interface DatasetJson {
  readonly name: string;
  readonly doc: string;
  readonly endpoint: string;
  readonly axis: string;
  readonly rescans_overlap: boolean;
  readonly filters: readonly { readonly name: string; readonly type: string; readonly doc: string }[];
  readonly tables: readonly TableJson[];
}

interface TableJson {
  readonly name: string;
  readonly doc: string;
  readonly primary_key: readonly string[];
  readonly replace_by: string | null;
  readonly cluster_by: string | null;
  readonly partitioned_by_day: boolean;
  readonly columns: readonly ColumnJson[];
}

interface ColumnJson {
  readonly name: string;
  readonly kind: string;
  readonly duckdb_type: string;
  readonly parquet_type: string;
  readonly nullable: boolean;
  readonly doc: string;
}

export const datasetsCommand: CommandModule<object, DatasetsArgs> = {
  builder: (y) =>
    y
      .positional('streams', { type: 'string', array: true, default: [], describe: 'stream names, e.g. transactions traces' })
      .options({ json: { type: 'boolean', default: false, describe: 'print one JSON document instead of text' } }) as never,
  handler: (args) => {
    const chosen = selectedStreams(args.streams);
    process.stdout.write(args.json ? `${JSON.stringify({ streams: chosen.map(datasetJson) }, null, 2)}\n` : chosen.map(datasetText).join('\n'));
  },
};

/** The streams named, in the order named (each once), or all of them; an unknown name is a usage error. */
function selectedStreams(names: readonly string[]): AnyStream[] {
  if (names.length === 0) return [...allStreams];
  for (const name of names) {
    if (!(STREAM_NAMES as readonly string[]).includes(name)) throw new ConfigError(unknownName(name, STREAM_NAMES, { noun: 'stream', listName: 'streams' }));
  }
  return [...new Set(names)].map(streamByName);
}

export function datasetJson(stream: AnyStream): DatasetJson {
  return {
    name: stream.name,
    doc: stream.doc,
    endpoint: stream.endpoint,
    ...byKind<Pick<DatasetJson, 'axis' | 'rescans_overlap'>>(stream, {
      position: (positioned) => ({ axis: positioned.axis, rescans_overlap: positioned.rescansOverlap }),
      // A snapshot stream reads its whole scope each time: no position, no re-scan.
      snapshot: () => ({ axis: 'snapshot', rescans_overlap: false }),
    }),
    filters: describeOptions(z.object(stream.filters)).map((row) => ({ name: row.key, type: row.type, doc: row.description })),
    tables: stream.tables.map(tableJson),
  };
}

function tableJson(table: AnyTable): TableJson {
  return {
    name: table.name,
    doc: table.doc,
    primary_key: table.primaryKey,
    replace_by: table.replaceBy ?? null,
    cluster_by: table.clusterBy ?? null,
    partitioned_by_day: table.partitionBy !== undefined,
    columns: table.columnNames.map((name) => {
      const kind = table.columns[name]!;
      return { name, kind: kind.kind, duckdb_type: kind.sqlType, parquet_type: kind.parquetType, nullable: kind.isNullable, doc: kind.description };
    }),
  };
}

/** A stream as text: its line, its doc and filters, then each table with a line per column. */
function datasetText(stream: AnyStream): string {
  const dataset = datasetJson(stream);
  const reading = dataset.axis === 'snapshot' ? 'read whole as a snapshot' : `paged by ${dataset.axis}`;
  const lines = [`${dataset.name} (${dataset.endpoint}, ${reading})`, `  ${dataset.doc}`];
  if (dataset.filters.length > 0) {
    lines.push('  filters:', ...aligned(dataset.filters.map((f) => [f.name, f.type, f.doc])).map((line) => `    ${line}`));
  }
  for (const table of dataset.tables) {
    lines.push('', `  table ${table.name} (key ${table.primary_key.join(', ')})`, `    ${table.doc}`);
    const rows = table.columns.map((c) => [c.name, c.duckdb_type, c.nullable ? 'null' : '', c.doc]);
    lines.push(...aligned(rows).map((line) => `    ${line}`));
  }
  return `${lines.join('\n')}\n`;
}

/** Rows of cells as lines, each column padded to its widest cell (the last one not padded). */
function aligned(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => row[i]!.length))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}
