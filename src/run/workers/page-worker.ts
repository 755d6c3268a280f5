/**
 * A worker thread of the page pool (page-pool.ts): prepares each body it is sent with its stream's
 * definition, by name from the registry, and posts the result back under the task's id.
 */
import { parentPort } from 'node:worker_threads';
import type { StreamDefinition } from '../../core/stream.js';
import { streamByName } from '../../streams/index.js';
import { preparePage } from '../../transform/prepared-page.js';
import type { PageTask, PageTaskResult } from './page-pool.js';

const port = parentPort;
if (port === null) throw new Error('page-worker.js runs as a worker thread of a PagePool');

port.on('message', (task: PageTask) => {
  let result: PageTaskResult;
  try {
    result = { id: task.id, body: preparePage(streamByName(task.stream) as StreamDefinition, task.body) };
  } catch (err) {
    result = { id: task.id, failure: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  }
  port.postMessage(result);
});
