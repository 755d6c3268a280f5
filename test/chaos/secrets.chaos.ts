/**
 * The API key appears nowhere (test/secrets/key-search.ts), at every log level, with the client's
 * default retries running out against the always-failing devnet (9 attempts, about 30 s of backoff).
 * `npm test` runs the same search at trace, debug and info with fewer retries.
 */
import { ALL_LEVELS, describeKeySearch } from '../secrets/key-search.js';

describeKeySearch({ levels: ALL_LEVELS });
