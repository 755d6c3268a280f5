import { describe, expect, it } from 'vitest';
import { readAhead } from '../../src/run/read-ahead.js';

/** A source that logs when it starts making each value and when it is closed. */
function loggedSource(log: string[], count: number, failAt?: number): AsyncGenerator<number> {
  return (async function* () {
    try {
      for (let i = 1; i <= count; i++) {
        log.push(`make ${i}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (i === failAt) throw new Error(`source failed at ${i}`);
        yield i;
      }
    } finally {
      log.push('source closed');
    }
  })();
}

describe('readAhead', () => {
  it('starts making the next value before the caller is done with the current one, and no further', async () => {
    const log: string[] = [];
    const seen: number[] = [];
    for await (const value of readAhead(loggedSource(log, 3))) {
      log.push(`handle ${value}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      seen.push(value);
    }
    expect(seen).toEqual([1, 2, 3]);
    expect(log).toEqual(['make 1', 'make 2', 'handle 1', 'make 3', 'handle 2', 'source closed', 'handle 3']);
  });

  it('closes the source when the caller stops early, after the value in the making is done', async () => {
    const log: string[] = [];
    for await (const value of readAhead(loggedSource(log, 5))) {
      log.push(`handle ${value}`);
      break;
    }
    expect(log).toEqual(['make 1', 'make 2', 'handle 1', 'source closed']);
  });

  it('passes a failure of the source to the caller at the value that failed', async () => {
    const log: string[] = [];
    const seen: number[] = [];
    const consume = async (): Promise<void> => {
      for await (const value of readAhead(loggedSource(log, 5, 2))) seen.push(value);
    };
    await expect(consume()).rejects.toThrow('source failed at 2');
    expect(seen).toEqual([1]);
  });
});
