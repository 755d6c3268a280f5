/** Where tests put their pipeline files and warehouses. */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';

/**
 * In memory (`/dev/shm`) where the machine has it: the sinks' fsyncs then cost nothing (measured: a
 * sync 50–90 ms faster; test/integration/compaction.test.ts 74 → 59 s), and no test is about
 * surviving power loss (kill -9 leaves the page cache, so a killed run sees the same files either way).
 */
export const SCRATCH_ROOT = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
