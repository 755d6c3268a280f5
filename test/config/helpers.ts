import { expect } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { parsePipeline, type Pipeline, type PipelineOverrides } from '../../src/config/index.js';

/** The file name messages use in these tests. */
export const FILE = 'pipelines/x.yaml';

/** The rest of a valid file, for cases about one key. */
export const VALID_TAIL = 'streams: [transactions]\nsink: { kind: duckdb, path: data/x.duckdb }\n';

export function load(text: string, env: NodeJS.ProcessEnv = {}, overrides: PipelineOverrides = {}): Pipeline {
  return parsePipeline(text, FILE, overrides, env);
}

/** The ConfigError `run` throws; fails the test if it throws anything else or nothing. */
export function configErrorOf(run: () => unknown): ConfigError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError, but nothing was thrown');
}
