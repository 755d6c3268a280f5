import nock from 'nock';
import { pino, type Logger } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { ApiClient, type ApiClientOptions } from '../../src/api/http-client.js';

export const BASE = 'https://api.example.test';
export const SECRET = 'Wq2H6aEzh5p9nE7PTFP84PSyYBcPjYfN';

/** A client tuned for tests: high rps, no jitter wait unless asked, tiny backoff. */
export function testClient(overrides: Partial<ApiClientOptions> = {}): ApiClient {
  return new ApiClient({
    baseUrl: BASE,
    rps: 1000,
    concurrency: 4,
    timeoutMs: 2000,
    backoff: { baseMs: 1, maxMs: 5 },
    random: () => 0.5,
    ...overrides,
  });
}

export interface CapturedLogs {
  readonly logger: Logger;
  /** Every line written so far, as raw text. */
  readonly text: () => string;
  readonly lines: () => Record<string, unknown>[];
}

export function captureLogs(): CapturedLogs {
  const chunks: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void chunks.push(line) });
  const text = (): string => chunks.join('');
  return {
    logger,
    text,
    lines: () =>
      text()
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/** Resolves with the rejection of `promise`, failing the test if it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof Error) return err;
    throw new Error(`rejected with a non-Error: ${String(err)}`);
  }
  throw new Error('expected a rejection, got a result');
}

/**
 * nock for the file's tests, and only for them: test files share a worker process (vitest.config.ts,
 * `isolate: false`), so the file after this one must find Node's own HTTP, and this file nock active
 * again if an earlier one restored it.
 */
export function useNock(): void {
  beforeAll(() => {
    if (!nock.isActive()) nock.activate();
    nock.disableNetConnect();
  });
  afterAll(() => {
    nock.cleanAll();
    nock.enableNetConnect();
    nock.restore();
  });
}
