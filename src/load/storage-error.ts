/**
 * A write the machine refused (disk full, quota, file too large, read-only file system, permission,
 * I/O error), told as one line naming the path, the room left on its file system and what to do.
 * Node reports these as an errno code with a path; DuckDB only as text (`IO Error: Could not write
 * file "…": No space left on device`): both are recognised here, where foreign errors get a class.
 */
import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { FatalError } from '../core/errors.js';

/** A write to the warehouse or beside it that the file system refused. Exit code 1. */
export class StorageError extends FatalError {
  constructor(
    message: string,
    readonly code: StorageCode,
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The system's own wording of each errno, as DuckDB quotes it (strerror). */
const STRERROR = {
  ENOSPC: 'No space left on device',
  EDQUOT: 'Disk quota exceeded',
  EFBIG: 'File too large',
  EROFS: 'Read-only file system',
  EACCES: 'Permission denied',
  EPERM: 'Operation not permitted',
  EIO: 'Input/output error',
} as const;

export type StorageCode = keyof typeof STRERROR;

const CODE_OF_STRERROR = new Map<string, StorageCode>(Object.entries(STRERROR).map(([code, text]) => [text, code as StorageCode]));
const DUCKDB_FILE_ERROR = new RegExp(`"([^"]+)": (${Object.values(STRERROR).join('|')})`);
const RERUN = 'then run the same command again: every committed page is kept and nothing half-written stays';

/** The storage failure behind `error` (itself or a cause), told as a `StorageError`; undefined for any other error. */
export async function storageErrorOf(error: unknown): Promise<StorageError | undefined> {
  // Already told (by the run, before the CLI's own catch): its code and path would match again.
  if (error instanceof StorageError) return error;
  const failure = refusedWrite(error);
  if (failure === undefined) return undefined;
  const { code, path } = failure;
  return new StorageError(`${await describe(code, path)}; ${RERUN}`, code, path, { cause: error });
}

function refusedWrite(error: unknown): { code: StorageCode; path: string } | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 8; cause = cause.cause, depth += 1) {
    const { code, path } = cause as NodeJS.ErrnoException;
    if (code !== undefined && code in STRERROR && typeof path === 'string') return { code: code as StorageCode, path };
    const quoted = DUCKDB_FILE_ERROR.exec(cause.message);
    if (quoted !== null) return { code: CODE_OF_STRERROR.get(quoted[2]!)!, path: quoted[1]! };
  }
  return undefined;
}

async function describe(code: StorageCode, path: string): Promise<string> {
  switch (code) {
    case 'ENOSPC':
      return `the disk is full: writing ${path} failed with ${await freeSpace(path)} free on its file system, and the commit needed more: free some space or move sink.path to a larger disk`;
    case 'EDQUOT':
      return `the disk quota is used up: writing ${path} failed with ${await freeSpace(path)} free on its file system: raise the quota or free some space`;
    case 'EFBIG':
      return `a file grew past the largest this system allows: writing ${path} failed: raise the limit (ulimit -f) or move sink.path to a file system without one`;
    case 'EROFS':
      return `the file system is read-only: cannot write ${path}: remount it read-write or move sink.path`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied writing ${path}: give this user write access to its folder or move sink.path`;
    case 'EIO':
      return `the disk failed to write ${path} (input/output error): check the disk (dmesg) before writing to it again`;
  }
}

/** Bytes available to this user on the file system holding `path` (its nearest existing folder), for people. */
async function freeSpace(path: string): Promise<string> {
  for (let folder = dirname(path); ; folder = dirname(folder)) {
    try {
      const stats = await statfs(folder);
      return formatBytes(stats.bavail * stats.bsize);
    } catch {
      if (dirname(folder) === folder) return 'an unknown amount';
    }
  }
}

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'];

/** `512 bytes`, `1.2 MB`, `38 GB` (powers of 1,024). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  return `${value.toFixed(digits)} ${UNITS[unit]}`;
}
