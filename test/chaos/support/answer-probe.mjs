// Preloaded into a CLI run with `node --import` (see used-answers.ts): appends to
// $CHAIN_ETL_ANSWER_LOG the `X-Devnet-Answer` number of every answer the client accepted (the
// `chain-etl:answer` channel, src/api/answers.ts), so a test counts what the run used, not what the
// devnet sent: an answer the client had timed out on is sent but never used.
import { subscribe } from 'node:diagnostics_channel';
import { appendFileSync } from 'node:fs';

const out = process.env.CHAIN_ETL_ANSWER_LOG;
if (out !== undefined && out !== '') {
  subscribe('chain-etl:answer', (message) => {
    const number = message.headers.get('x-devnet-answer');
    if (number !== null) appendFileSync(out, `${number}\n`);
  });
}
