// A page worker that dies on its first page (runner.test.ts): exit code 3, no answer.
import { parentPort } from 'node:worker_threads';

parentPort.on('message', () => process.exit(3));
