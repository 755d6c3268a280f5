import { readdir, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { MANIFEST_FILE, type Manifest } from './manifest.js';
import { DAMAGED_FOLDER, TEMP_SUFFIX, dataFileName, isPartitionFolder } from './layout.js';

/** What `removeLeftovers` did and saw. */
export interface Leftovers {
  /** Files of an interrupted commit, deleted (relative to the root). */
  readonly removed: readonly string[];
  /** Parquet files the manifest does not know and chain-etl cannot prove it wrote: left alone. */
  readonly foreign: readonly string[];
}

/**
 * Deletes only what an interrupted commit provably left: the manifest's temp file, temp files of
 * data files, and data files of the one generation after the manifest's (the commit that never
 * published), in the folders chain-etl writes (`<table>/` and `<table>/date=…/`). Every other file
 * and folder is left alone; the unknown Parquet files are returned to be reported.
 */
export async function removeLeftovers(root: string, manifest: Manifest, tables: Iterable<string>): Promise<Leftovers> {
  const known = new Set([
    ...Object.values(manifest.tables).flatMap((entry) => entry.files.map((file) => file.path)),
    ...manifest.retired.map((file) => file.path),
  ]);
  const removed: string[] = [];
  const foreign: string[] = [];
  const sweep = async (folder: string, partitions: boolean): Promise<void> => {
    for (const entry of await entriesOf(join(root, folder))) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) {
        if (partitions && isPartitionFolder(entry.name)) await sweep(path, false);
        continue;
      }
      if (!entry.isFile() || known.has(path)) continue;
      const ours = dataFileName(entry.name);
      if (ours !== undefined && (ours.temp || ours.generation === manifest.generation + 1)) {
        await rm(join(root, path), { force: true });
        removed.push(path);
      } else if (entry.name.endsWith('.parquet')) {
        foreign.push(path);
      }
    }
    if (folder.includes('/') && removed.some((path) => path.startsWith(`${folder}/`))) {
      await rmdir(join(root, folder)).catch(() => undefined);
    }
  };
  await rm(join(root, `${MANIFEST_FILE}${TEMP_SUFFIX}`), { force: true });
  for (const table of new Set(tables)) await sweep(table, true);
  return { removed, foreign };
}

/** The first Parquet file under `root` (the damaged-file folder aside), relative to it; undefined when none. */
export async function firstParquetFile(root: string, folder = ''): Promise<string | undefined> {
  for (const entry of await entriesOf(join(root, folder))) {
    const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
    if (entry.isDirectory() && path !== DAMAGED_FOLDER) {
      const found = await firstParquetFile(root, path);
      if (found !== undefined) return found;
    } else if (entry.isFile() && entry.name.endsWith('.parquet')) {
      return path;
    }
  }
  return undefined;
}

async function entriesOf(folder: string) {
  try {
    return await readdir(folder, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw err;
  }
}
