import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError } from '../../core/errors.js';
import { firstParquetFile } from './cleanup.js';
import { missingManifestError, readManifest, type Manifest, type ManifestFile } from './manifest.js';

/** Every Parquet file begins and ends with these bytes. */
const MAGIC = 'PAR1';
/** The footer's length, a little-endian uint32 just before the closing magic. */
const FOOTER_LENGTH_BYTES = 4;
/** Magic, footer length, magic: a file without a byte of data or metadata. */
const MIN_SIZE = 2 * MAGIC.length + FOOTER_LENGTH_BYTES;

/** A file the manifest lists that cannot be read as written. */
export interface DamagedFile extends ManifestFile {
  readonly table: string;
  /** What is wrong, e.g. `missing`, `1200 bytes, the manifest recorded 5400`. */
  readonly problem: string;
}

/**
 * The listed files that are missing, of another size than the manifest recorded, or without the
 * Parquet magic at both ends or with a footer length that does not fit (truncated, overwritten, zero
 * bytes). Reads 12 bytes per file.
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

/** The refusal of a warehouse with damaged files: the first named, the others counted, the way out. */
export function damagedFilesError(root: string, damaged: readonly DamagedFile[]): ConfigError {
  const [first, ...more] = damaged;
  const others = more.length === 0 ? '' : ` (and ${more.length} more: ${more.slice(0, 3).map((file) => file.path).join(', ')}${more.length > 3 ? ', …' : ''})`;
  return new ConfigError(
    `Parquet file ${join(root, first!.path)} is damaged (${first!.problem})${others}: ` +
      'run chain-etl repair with this pipeline; it moves damaged files to _damaged/ and fetches their rows again',
  );
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
    if (size < MIN_SIZE) return `${size} bytes, too short for Parquet`;
    const head = Buffer.alloc(MAGIC.length);
    const tail = Buffer.alloc(FOOTER_LENGTH_BYTES + MAGIC.length);
    await handle.read(head, 0, head.length, 0);
    await handle.read(tail, 0, tail.length, size - tail.length);
    if (head.toString('latin1') !== MAGIC) return 'no Parquet header (PAR1)';
    if (tail.toString('latin1', FOOTER_LENGTH_BYTES) !== MAGIC) return 'no Parquet footer (PAR1)';
    const footer = tail.readUInt32LE(0);
    if (footer === 0 || footer > size - MIN_SIZE) return `a Parquet footer of ${footer} bytes in a file of ${size}`;
    return undefined;
  } finally {
    await handle.close();
  }
}

/**
 * The folder's manifest, or undefined for a folder without data files; data files without a manifest
 * are refused, never read as an empty warehouse (nothing says which of them are current).
 */
export async function readManifestBesideData(root: string): Promise<Manifest | undefined> {
  const stored = await readManifest(root);
  if (stored === undefined) {
    const example = await firstParquetFile(root);
    if (example !== undefined) throw missingManifestError(root, example);
  }
  return stored;
}
