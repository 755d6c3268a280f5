/**
 * `@ton/core`, loaded on first use. Most runs never parse a user-friendly address or a message body
 * (a cron run with nothing new), and loading the package costs 60–70 ms of every start-up.
 */
import { createRequire } from 'node:module';
import type * as TonCore from '@ton/core';

const require = createRequire(import.meta.url);
let loaded: typeof TonCore | undefined;

export function tonCore(): typeof TonCore {
  return (loaded ??= require('@ton/core') as typeof TonCore);
}
