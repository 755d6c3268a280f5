/** The registry's stream names as messages list them: `transactions, actions, …` and `…, jetton_transfers or validator_events`. */
import { STREAM_NAMES } from '../../src/streams/index.js';

export const STREAM_LIST = STREAM_NAMES.join(', ');

export const STREAM_CHOICE = `${STREAM_NAMES.slice(0, -1).join(', ')} or ${STREAM_NAMES.at(-1)!}`;
