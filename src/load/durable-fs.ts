import { open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Flushes a file or directory to disk (a directory's fsync makes its renames durable). */
export async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Replaces `path` with `data` so that a reader or a crash sees the old or the new file, never a mix. */
export async function writeFileDurably(path: string, data: string): Promise<void> {
  const temp = `${path}.tmp`;
  const handle = await open(temp, 'w');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, path);
  await fsyncPath(dirname(path));
}
