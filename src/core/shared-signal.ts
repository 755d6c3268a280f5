import { setMaxListeners } from 'node:events';

/**
 * Lifts Node's leak warning (10 listeners) from a signal that each waiting task of a queue listens
 * on: a run queues as many requests and page permits as its windows and rate allow, all on the run's
 * signal, and a warning on stderr would make cron mail a successful run. Each task removes its
 * listener when it settles, so the count stays bounded by what waits.
 */
export function listenedByEveryTask(signal: AbortSignal | undefined): AbortSignal | undefined {
  if (signal !== undefined) setMaxListeners(0, signal);
  return signal;
}
