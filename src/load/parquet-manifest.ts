import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { FatalError } from '../core/errors.js';
import type { AnyTable } from '../core/table.js';
import type { ColumnShape } from './column-diff.js';
import { writeFileDurably } from './durable-fs.js';

/** File name of the manifest at the root of a Parquet warehouse. */
export const MANIFEST_FILE = '_manifest.json';

const manifestFile = z.object({
  /** Path relative to the warehouse root, `/`-separated. */
  path: z.string(),
  /** Partition day, for partitioned tables. */
  date: z.string().optional(),
  rows: z.number().int().nonnegative(),
  /** Range of the table's clusterBy column in this file, as decimal integers. */
  clusterMin: z.string().optional(),
  clusterMax: z.string().optional(),
});

const manifestSchema = z.object({
  format: z.literal(1),
  schemaVersion: z.number().int(),
  /** Number of commits so far; names of files written by a commit derive from it. */
  generation: z.number().int().nonnegative(),
  tables: z.record(
    z.string(),
    z.object({
      columns: z.array(z.object({ name: z.string(), type: z.string(), nullable: z.boolean() })),
      files: z.array(manifestFile),
    }),
  ),
  checkpoints: z.record(z.string(), z.object({ position: z.string(), updatedAt: z.number().int() })),
});

/** The only truth about a Parquet warehouse: which files exist, and where each stream stopped. */
export type Manifest = z.infer<typeof manifestSchema>;
export type ManifestFile = z.infer<typeof manifestFile>;

export function emptyManifest(schemaVersion: number): Manifest {
  return { format: 1, schemaVersion, generation: 0, tables: {}, checkpoints: {} };
}

/** Reads `<root>/_manifest.json`; undefined when the warehouse has none yet. */
export async function readManifest(root: string): Promise<Manifest | undefined> {
  const path = join(root, MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new FatalError(`Cannot read Parquet manifest ${path}`, { cause: err });
  }
  const parsed = manifestSchema.safeParse(safeJsonParse(text));
  if (!parsed.success) {
    throw new FatalError(`Parquet manifest ${path} is not a chain-etl manifest: ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

/** Replaces the manifest atomically (temp file, fsync, rename, fsync of the folder): the commit point. */
export async function writeManifest(root: string, manifest: Manifest): Promise<void> {
  await writeFileDurably(join(root, MANIFEST_FILE), `${JSON.stringify(manifest, null, 1)}\n`);
}

/** The columns a manifest records for a table, as its definition declares them. */
export function manifestColumns(table: AnyTable): ColumnShape[] {
  return table.columnNames.map((name) => {
    const kind = table.columns[name]!;
    return { name, type: kind.sqlType, nullable: kind.isNullable };
  });
}

function safeJsonParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
