/**
 * `@ton/core`, loaded on first use. Most runs never parse a user-friendly address or a message body
 * (a cron run with nothing new), and loading the package is a visible part of every start-up
 * (CONTRIBUTING.md, Benchmarks).
 */
import { createRequire } from 'node:module';
import type * as TonCore from '@ton/core';

const require = createRequire(import.meta.url);
let loaded: typeof TonCore | undefined;

export function tonCore(): typeof TonCore {
  return (loaded ??= require('@ton/core') as typeof TonCore);
}
