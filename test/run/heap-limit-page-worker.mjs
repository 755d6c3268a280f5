// A page worker that answers every page with its own heap limit (page-pool-heap.test.ts), as a body that is not a list.
import { parentPort, resourceLimits } from 'node:worker_threads';

parentPort.on('message', (task) => parentPort.postMessage({ id: task.id, body: { kind: 'not-a-list', shown: String(resourceLimits.maxOldGenerationSizeMb) } }));
