import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError, FatalError } from '../../core/errors.js';
import type { AnyTable } from '../../core/table.js';
import type { ColumnShape } from '../column-diff.js';
import { writeFileDurably } from '../durable-fs.js';

/** Revision of the Parquet column types this release writes: 2, no unsigned logical types. */
export const PARQUET_TYPES = 2;

/** File name of the manifest at the root of a Parquet warehouse. */
export const MANIFEST_FILE = '_manifest.json';

/** The way out of a damaged or missing manifest, appended to its error. */
const MANIFEST_WAY_OUT =
  'chain-etl changes nothing in the folder: restore _manifest.json from a backup, or point sink.path (or --out) at a new folder and load the data again';

/**
 * A path relative to the warehouse root, `/`-separated, that stays inside it: no `..` or `.`
 * segment, no empty one, not absolute, no backslash or NUL. A manifest naming any other path (a
 * planted `../victim.txt`) is refused whole: commits delete and repair moves the files it lists.
 */
const warehousePath = z.string().refine((path) => path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..' && !/[\\\0]/.test(segment)), {
  message: 'a path outside the warehouse folder (only relative paths without "." or ".." segments are listed)',
});

const manifestFile = z.object({
  /** Path relative to the warehouse root, `/`-separated, inside it. */
  path: warehousePath,
  /** Partition day, for partitioned tables. */
  date: z.string().optional(),
  rows: z.number().int().nonnegative(),
  /** Size in bytes, checked on open (absent in manifests of earlier releases). */
  bytes: z.number().int().nonnegative().optional(),
  /** Range of the table's clusterBy column in this file, as decimal integers. */
  clusterMin: z.string().optional(),
  clusterMax: z.string().optional(),
});

/** A file a commit superseded: no longer read, kept on disk for readers still using an older manifest. */
const retiredFile = z.object({
  path: warehousePath,
  /** Unix seconds of the commit that superseded it. */
  retiredAt: z.number().int(),
});

/** A damaged file `chain-etl repair` moved to `_damaged/`, kept so that its range is known until fetched again. */
const setAsideFile = manifestFile.extend({
  table: z.string(),
  problem: z.string(),
  /** The positions of a stream it held that left the coverage, to fetch again (decimal integers). */
  refetch: z.object({ stream: z.string(), from: z.string(), to: z.string() }).optional(),
  /** Unix seconds of the repair that moved it. */
  setAsideAt: z.number().int(),
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
      /**
       * PARQUET_TYPES when every listed file holds the table's columns as `parquetSqlType` says;
       * absent for files of releases that wrote lt and query ids as unsigned UINT_64.
       */
      parquetTypes: z.number().int().optional(),
      /** The clusterBy range commits wrote since the table's last sweep of moved keys (`written-ranges.ts`), decimal integers. */
      unswept: z.object({ min: z.string(), max: z.string() }).optional(),
      /** The clusterBy range commits wrote since the stored checks last passed over the table (`written-ranges.ts`). */
      unchecked: z.object({ min: z.string(), max: z.string() }).optional(),
    }),
  ),
  checkpoints: z.record(z.string(), z.object({ position: z.string(), updatedAt: z.number().int() })),
  retired: z.array(retiredFile).default([]),
  setAside: z.array(setAsideFile).default([]),
});

/** The only truth about a Parquet warehouse: which files exist, and where each stream stopped. */
export type Manifest = z.infer<typeof manifestSchema>;
export type ManifestFile = z.infer<typeof manifestFile>;
export type RetiredFile = z.infer<typeof retiredFile>;
export type SetAsideFile = z.infer<typeof setAsideFile>;

export function emptyManifest(schemaVersion: number): Manifest {
  return { format: 1, schemaVersion, generation: 0, tables: {}, checkpoints: {}, retired: [], setAside: [] };
}

/**
 * Reads `<root>/_manifest.json`; undefined when the warehouse has none yet. A manifest that is not
 * JSON or not of this shape is refused (exit 2): nothing is guessed from the files beside it.
 */
export async function readManifest(root: string): Promise<Manifest | undefined> {
  const path = join(root, MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new FatalError(`Cannot read Parquet manifest ${path}`, { cause: err });
  }
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch (err) {
    const reason = text.trim() === '' ? 'it is empty' : `it is not valid JSON (${(err as Error).message})`;
    throw new ConfigError(`Parquet manifest ${path} is damaged: ${reason}; ${MANIFEST_WAY_OUT}`, { cause: err });
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issues = z.prettifyError(parsed.error).replace(/\s*\n\s*/g, ' ');
    throw new ConfigError(`Parquet manifest ${path} is not a chain-etl manifest this release reads: ${issues}; ${MANIFEST_WAY_OUT}`);
  }
  return parsed.data;
}

/** Refuses a folder that holds data files but no manifest: which of them are current is unknown. */
export function missingManifestError(root: string, example: string): ConfigError {
  return new ConfigError(
    `Parquet warehouse ${root} holds data files (e.g. ${example}) but no ${MANIFEST_FILE}, which alone says which of them are current; ${MANIFEST_WAY_OUT}`,
  );
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

/** The manifest entry of a table no file of which is written yet. */
export function emptyTableEntry(table: AnyTable): Manifest['tables'][string] {
  return { columns: manifestColumns(table), files: [], parquetTypes: PARQUET_TYPES };
}
