import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Flushes a file or directory to disk (a directory's fsync makes its renames durable). */
export async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync().catch((error: unknown) => Promise.reject(naming(error, path)));
  } finally {
    await handle.close();
  }
}

/**
 * Replaces `path` with `data` so that a reader or a crash sees the old or the new file, never a mix.
 * The temp file is created new (`wx`, after removing whatever has its name): a symlink planted there
 * is removed, never written through.
 */
export async function writeFileDurably(path: string, data: string): Promise<void> {
  const temp = `${path}.tmp`;
  await rm(temp, { force: true });
  const handle = await open(temp, 'wx');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    throw naming(error, temp);
  } finally {
    await handle.close();
  }
  await rename(temp, path);
  await fsyncPath(dirname(path));
}

/**
 * `error` with the path it concerns: Node's errors of a write or sync through a file handle carry
 * none (`ENOSPC: no space left on device, write`), and a storage error's message names the file.
 */
function naming(error: unknown, path: string): unknown {
  if (error instanceof Error && (error as NodeJS.ErrnoException).code !== undefined && (error as NodeJS.ErrnoException).path === undefined) {
    Object.assign(error, { path });
  }
  return error;
}
