import { readdir, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { MANIFEST_FILE } from './parquet-manifest.js';
import { TEMP_SUFFIX } from './parquet-layout.js';

const OWNED = /\.(parquet|tmp)$/;

/**
 * Deletes what a crash may leave behind: Parquet and temp files under the tables' folders that
 * the manifest does not list, emptied partition folders, and a half-written manifest. Files of
 * other kinds are left alone. Returns the deleted files, relative to `root`.
 */
export async function removeUnlisted(root: string, tables: Iterable<string>, listed: ReadonlySet<string>): Promise<string[]> {
  const removed: string[] = [];
  await rm(join(root, `${MANIFEST_FILE}${TEMP_SUFFIX}`), { force: true });
  for (const table of tables) await sweep(root, table, listed, removed);
  return removed;
}

async function sweep(root: string, relative: string, listed: ReadonlySet<string>, removed: string[]): Promise<boolean> {
  let entries;
  try {
    entries = await readdir(join(root, relative), { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw err;
  }
  let empty = true;
  for (const entry of entries) {
    const path = `${relative}/${entry.name}`;
    if (entry.isDirectory()) {
      if (await sweep(root, path, listed, removed)) await rmdir(join(root, path));
      else empty = false;
    } else if (OWNED.test(entry.name) && !listed.has(path)) {
      await rm(join(root, path), { force: true });
      removed.push(path);
    } else {
      empty = false;
    }
  }
  return empty;
}
