import { describe, expect, it } from 'vitest';
import { PageBudget } from '../../src/run/page-budget.js';

async function* numbers(count: number, made: number[]): AsyncGenerator<number> {
  for (let i = 1; i <= count; i++) {
    made.push(i);
    yield i;
  }
}

describe('PageBudget', () => {
  it('lets no more values be made than permits given back', async () => {
    const budget = new PageBudget(2);
    const made: number[] = [];
    const paced = budget.pace(numbers(5, made));
    expect((await paced.next()).value).toBe(1);
    expect((await paced.next()).value).toBe(2);
    let third = false;
    const pending = paced.next().then((result) => {
      third = true;
      return result;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(third).toBe(false);
    expect(made).toEqual([1, 2]);
    budget.release();
    expect((await pending).value).toBe(3);
    expect(made).toEqual([1, 2, 3]);
  });

  it('gives the permit back when the source ends or fails', async () => {
    const budget = new PageBudget(1);
    const empty = budget.pace(numbers(0, []));
    expect((await empty.next()).done).toBe(true);
    const failing = budget.pace(
      (async function* (): AsyncGenerator<number> {
        throw new Error('request failed');
      })(),
    );
    await expect(failing.next()).rejects.toThrow('request failed');
    await budget.acquire();
  });

  it('stops waiting for a permit when the run is aborted', async () => {
    const budget = new PageBudget(1);
    await budget.acquire();
    const controller = new AbortController();
    const waiting = budget.acquire(controller.signal);
    controller.abort(new Error('interrupted'));
    await expect(waiting).rejects.toThrow('interrupted');
    budget.release();
    await budget.acquire();
  });
});
