import { mkdir, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { DamagedFile } from './integrity.js';
import { DAMAGED_FOLDER } from './layout.js';
import type { Manifest, SetAsideFile } from './manifest.js';

/** A stream range a set-aside file held, to fetch again. */
export type Refetch = NonNullable<SetAsideFile['refetch']>;

/** What a repair changes besides the files: checkpoint texts by stream, ranges to fetch by file path. */
export interface SetAside {
  readonly checkpoints: ReadonlyMap<string, string>;
  readonly refetch: ReadonlyMap<string, Refetch>;
  /** Unix seconds. */
  readonly now: number;
}

/**
 * Moves the damaged files into `<root>/_damaged/` (never deletes them; a missing one has nothing to
 * move) and returns the next manifest: without them, with the given checkpoints, remembering each
 * under `setAside`. The caller publishes it.
 */
export async function setAsideDamaged(root: string, manifest: Manifest, damaged: readonly DamagedFile[], change: SetAside): Promise<Manifest> {
  for (const file of damaged) {
    if (file.problem === 'missing') continue;
    const target = join(root, DAMAGED_FOLDER, file.path);
    await mkdir(dirname(target), { recursive: true });
    await rename(join(root, file.path), target);
  }
  const gone = new Set(damaged.map((file) => file.path));
  const tables = Object.fromEntries(
    Object.entries(manifest.tables).map(([name, entry]) => [name, { ...entry, files: entry.files.filter((file) => !gone.has(file.path)) }]),
  );
  const checkpoints = { ...manifest.checkpoints };
  for (const [stream, position] of change.checkpoints) checkpoints[stream] = { position, updatedAt: change.now };
  const setAside = damaged.map((file) => {
    const range = change.refetch.get(file.path);
    return { ...file, ...(range === undefined ? {} : { refetch: range }), setAsideAt: change.now };
  });
  return { ...manifest, generation: manifest.generation + 1, tables, checkpoints, setAside: [...manifest.setAside, ...setAside] };
}
