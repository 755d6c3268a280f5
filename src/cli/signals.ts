import { InterruptedError } from '../core/errors.js';

/**
 * SIGINT/SIGTERM abort the run: no new page starts, the commit in progress finishes or rolls back
 * as a unit. A second signal exits at once (the open transaction is then rolled back by DuckDB, a
 * Parquet commit's files are never in the manifest); the next run marks this run `abandoned`.
 */
export interface InterruptSignal {
  readonly signal: AbortSignal;
  dispose(): void;
}

/**
 * Runs `body` with an interrupt signal, its handlers removed however `body` ends, also when it fails
 * before its run starts (a pipeline file refused, a warehouse locked).
 */
export async function whileInterruptible<T>(body: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const interrupt = interruptSignal();
  try {
    return await body(interrupt.signal);
  } finally {
    interrupt.dispose();
  }
}

export function interruptSignal(): InterruptSignal {
  const controller = new AbortController();
  const onSignal = (name: 'SIGINT' | 'SIGTERM') => (): void => {
    if (controller.signal.aborted) {
      process.stderr.write(`chain-etl: second ${name}: exiting now; the commit in progress is rolled back and the next run resumes from the last checkpoint\n`);
      process.exit(new InterruptedError(name).exitCode);
    }
    controller.abort(new InterruptedError(name));
  };
  const onInt = onSignal('SIGINT');
  const onTerm = onSignal('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    },
  };
}
