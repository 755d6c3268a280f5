import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { Manifest, ManifestFile } from './parquet-manifest.js';

/** Every Parquet file begins and ends with these bytes. */
const MAGIC = 'PAR1';

/** A file the manifest lists that cannot be read as written. */
export interface DamagedFile extends ManifestFile {
  readonly table: string;
  /** What is wrong, e.g. `missing`, `1200 bytes, the manifest recorded 5400`. */
  readonly problem: string;
}

/**
 * The listed files that are missing, of another size than the manifest recorded, or without the
 * Parquet magic at both ends (truncated, overwritten, zero bytes). Reads 8 bytes per file.
 */
export async function damagedFiles(root: string, manifest: Manifest): Promise<DamagedFile[]> {
  const damaged: DamagedFile[] = [];
  for (const [table, entry] of Object.entries(manifest.tables)) {
    for (const file of entry.files) {
      const problem = await problemOf(join(root, file.path), file.bytes);
      if (problem !== undefined) damaged.push({ ...file, table, problem });
    }
  }
  return damaged;
}

async function problemOf(path: string, bytes: number | undefined): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    return `unreadable (${(err as Error).message})`;
  }
  try {
    const { size } = await handle.stat();
    if (bytes !== undefined && size !== bytes) return `${size} bytes, the manifest recorded ${bytes}`;
    if (size < 2 * MAGIC.length) return `${size} bytes, too short for Parquet`;
    const head = Buffer.alloc(MAGIC.length);
    const tail = Buffer.alloc(MAGIC.length);
    await handle.read(head, 0, MAGIC.length, 0);
    await handle.read(tail, 0, MAGIC.length, size - MAGIC.length);
    if (head.toString('latin1') !== MAGIC) return 'no Parquet header (PAR1)';
    if (tail.toString('latin1') !== MAGIC) return 'no Parquet footer (PAR1)';
    return undefined;
  } finally {
    await handle.close();
  }
}
