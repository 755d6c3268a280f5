import { listenedByEveryTask } from '../core/shared-signal.js';

/**
 * How many pages may be fetched and not yet committed at once, across every window of a run. A page
 * takes its permit before its request is sent and gives it back once committed: memory stays bounded
 * by the budget, not by the number of windows, and requests wait while commits (one at a time) catch up.
 */
export class PageBudget {
  #free: number;
  readonly #waiting = new Set<() => void>();

  constructor(readonly size: number) {
    this.#free = size;
  }

  /** Waits for a permit; rejects with the signal's reason if it aborts first. */
  async acquire(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.#free > 0) {
      this.#free -= 1;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const granted = (): void => {
        signal?.removeEventListener('abort', aborted);
        resolve();
      };
      const aborted = (): void => {
        this.#waiting.delete(granted);
        reject(signal!.reason);
      };
      this.#waiting.add(granted);
      listenedByEveryTask(signal)?.addEventListener('abort', aborted, { once: true });
    });
  }

  release(): void {
    const [next] = this.#waiting;
    if (next === undefined) {
      this.#free += 1;
      return;
    }
    this.#waiting.delete(next);
    next();
  }

  /** Yields the source's values, each made under a permit that the caller releases once done with it. */
  async *pace<T>(source: AsyncGenerator<T>, signal?: AbortSignal): AsyncGenerator<T> {
    try {
      for (;;) {
        await this.acquire(signal);
        let result: IteratorResult<T> | undefined;
        try {
          result = await source.next();
        } catch (error) {
          this.release();
          throw error;
        }
        if (result.done === true) {
          this.release();
          return;
        }
        yield result.value;
        // A suspended generator keeps its variables: not this value while waiting for a permit.
        result = undefined;
      }
    } finally {
      await source.return(undefined);
    }
  }
}
