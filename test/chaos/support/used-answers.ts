/**
 * The answers a CLI run used: its environment preloads answer-probe.mjs, which logs the number of
 * every devnet answer the client accepted (on the channel src/api/answers.ts names); `read()` returns them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { KEY, KEY_ENV } from '../../support/test-key.js';

const PROBE = fileURLToPath(new URL('./answer-probe.mjs', import.meta.url));

export class UsedAnswers {
  readonly #log: string;

  constructor(dir: string, name: string) {
    this.#log = join(dir, `${name}.answers`);
  }

  /** The CLI's environment (the runner's, the test key, NO_COLOR) with the probe preloaded. */
  env(): NodeJS.ProcessEnv {
    const preload = `--import=${pathToFileURL(PROBE).href}`;
    const nodeOptions = [process.env.NODE_OPTIONS, preload].filter((option) => option !== undefined && option !== '').join(' ');
    return { ...process.env, [KEY_ENV]: KEY, NO_COLOR: '1', NODE_OPTIONS: nodeOptions, CHAIN_ETL_ANSWER_LOG: this.#log };
  }

  /** Numbers of the answers accepted so far. */
  read(): ReadonlySet<number> {
    if (!existsSync(this.#log)) return new Set();
    return new Set(readFileSync(this.#log, 'utf8').split('\n').filter((line) => line !== '').map(Number));
  }
}
