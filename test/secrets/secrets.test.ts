/**
 * The API key appears nowhere (test/secrets/key-search.ts): at trace (the binary), debug and info,
 * with the retries of the always-failing devnet cut to 2 so that they run out in about a second
 * instead of the default's 30 s of backoff. `npm run test:chaos` runs the search at all five levels
 * with the default retries (test/chaos/secrets.chaos.ts).
 */
import { describeKeySearch } from './key-search.js';

describeKeySearch({ levels: ['trace', 'debug', 'info'], exhaustedRetries: 2 });
