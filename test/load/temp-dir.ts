import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { SCRATCH_ROOT } from '../support/scratch-root.js';

/**
 * A fresh temp dir per call, all removed after the file's (or describe block's) last test: a test
 * cannot tell which dirs are its own when tests run concurrently. Call at module or describe level;
 * use the getter in tests.
 */
export function useTempDir(prefix: string): () => Promise<string> {
  const made: string[] = [];
  afterAll(async () => {
    await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return async () => {
    const dir = await mkdtemp(join(SCRATCH_ROOT, `chain-etl-${prefix}-`));
    made.push(dir);
    return dir;
  };
}
