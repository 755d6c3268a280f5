/**
 * Bounds the main thread's heap between V8's own major collections (docs/design.md §4, memory). The
 * rows of a page live until their commit, long enough to be promoted to the old generation, and die
 * with it; V8 lets the old generation grow to up to 4 × what survived its last major collection
 * before the next, so a run held 3–4 × its live heap as garbage. After a commit, when the heap has
 * grown by more than `headroomMb` over what the last collection here left, this collects it.
 * Node sets the heap's limits at start only; a full collection called from JS is what a running
 * process can do.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Megabytes the heap may grow by over its live part before a commit collects it. */
export const DEFAULT_HEAP_HEADROOM_MB = 128;

let fullCollection: (() => void) | undefined;

/** V8's full collection (`gc()` of `--expose-gc`), taken once without exposing it to the program's globals. */
function collector(): () => void {
  if (fullCollection !== undefined) return fullCollection;
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed !== undefined) return (fullCollection = exposed);
  setFlagsFromString('--expose-gc');
  try {
    fullCollection = runInNewContext('gc') as () => void;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  return fullCollection;
}

export class HeapBound {
  readonly #headroom: number;
  /** The heap in use after the last collection here, or when the run started. */
  #live = getHeapStatistics().used_heap_size;
  #collections = 0;

  constructor(headroomMb = DEFAULT_HEAP_HEADROOM_MB) {
    this.#headroom = headroomMb * 2 ** 20;
  }

  /** Full collections this bound ran. */
  get collections(): number {
    return this.#collections;
  }

  /** Once a commit's pages are let go (their rows are garbage then): collects when the heap grew past the headroom. */
  afterCommit(): void {
    if (getHeapStatistics().used_heap_size < this.#live + this.#headroom) return;
    // Taken on first need: a cron run that never collects creates no context for it.
    collector()();
    this.#collections += 1;
    this.#live = getHeapStatistics().used_heap_size;
  }
}
