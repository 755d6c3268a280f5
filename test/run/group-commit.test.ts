import { describe, expect, it } from 'vitest';
import { GroupCommitter } from '../../src/run/group-commit.js';
import type { StreamCommit } from '../../src/load/sink.js';

const commit = (checkpoint: string): StreamCommit => ({ stream: 's', rows: new Map(), checkpoint });

/** A sink whose commits finish only when the test says so. */
function heldSink() {
  const groups: string[][] = [];
  const finish: (() => void)[] = [];
  const commitAll = (commits: readonly StreamCommit[]): Promise<void> => {
    groups.push(commits.map((c) => c.checkpoint));
    return new Promise((resolve) => finish.push(resolve));
  };
  return { groups, finish, commitAll };
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommitter', () => {
  it('commits a page alone when nothing else waits, and the pages that arrive meanwhile as one group', async () => {
    const sink = heldSink();
    const committer = new GroupCommitter(sink.commitAll, 8);
    const done: string[] = [];
    const submit = (name: string): Promise<void> => committer.submit(() => commit(name)).then(() => void done.push(name));
    const first = submit('1');
    await turn();
    const rest = [submit('2'), submit('3'), submit('4')];
    await turn();
    expect(sink.groups).toEqual([['1']]);
    sink.finish.shift()!();
    await first;
    await turn();
    expect(sink.groups).toEqual([['1'], ['2', '3', '4']]);
    expect(done).toEqual(['1']);
    sink.finish.shift()!();
    await Promise.all(rest);
    expect(done).toEqual(['1', '2', '3', '4']);
    await committer.idle();
  });

  it('puts at most maxGroup pages in a group and prepares them in submission order', async () => {
    const prepared: string[] = [];
    const groups: number[] = [];
    const committer = new GroupCommitter(async (commits) => void groups.push(commits.length), 2);
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((name) => committer.submit(() => (prepared.push(name), commit(name)))));
    expect(prepared).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(groups).toEqual([2, 2, 1]);
  });

  it('rejects the failed group and every page after it unprepared: no later checkpoint covers lost rows', async () => {
    const prepared: string[] = [];
    let calls = 0;
    const committer = new GroupCommitter(async () => {
      calls += 1;
      if (calls === 2) throw new Error('disk full');
    }, 2);
    const submit = (name: string): Promise<void> => committer.submit(() => (prepared.push(name), commit(name)));
    const results = await Promise.allSettled(['a', 'b', 'c', 'd', 'e'].map(submit));
    const late = await Promise.allSettled([submit('f')]);
    const outcome = (r: PromiseSettledResult<void>): string => (r.status === 'rejected' ? (r.reason as Error).message : 'ok');
    expect([...results, ...late].map(outcome)).toEqual(['ok', 'ok', 'disk full', 'disk full', 'disk full', 'disk full']);
    expect(prepared).toEqual(['a', 'b', 'c', 'd']);
    expect(calls).toBe(2);
    await committer.idle();
  });
});
