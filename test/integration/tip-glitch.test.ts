/**
 * A glitched tip answer from the user's side: a proxy in front of the devnet changes one field of
 * the newest blocks in `/masterchainInfo` or `/blocks` (an lt 10^12 too high, a time ten years
 * ahead, blocks out of order). The sync exits 1 with one line naming the answer and writes no
 * checkpoint; once the answers are healthy, the same command brings the warehouse to the truth. A
 * warehouse whose checkpoint lies past the newest block a service indexes is refused the same way.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { decodeCheckpoint, encodeCheckpoint } from '../../src/core/checkpoint/record.js';
import { Coverage } from '../../src/core/checkpoint/coverage.js';
import { streamByName } from '../../src/streams/index.js';
import type { Devnet } from '../../src/devnet/index.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult, messageLines, type CliResult } from '../support/cli-result.js';
import { expectCoveredEqualsTruth } from '../support/expect-truth.js';
import type { MisbehavingServer } from '../support/misbehaving-server.js';
import { useProxiedDevnet } from '../support/proxied-devnet.js';
import { readWarehouse } from '../support/warehouse-snapshot.js';
import type { Workspace } from '../support/workspace.js';

const SEED = 9117;
const BLOCKS = 30;
/** Streams on both axes (lt, utime) and the blocks themselves. */
const STREAMS = ['transactions', 'validator_events', 'blocks'];
const TABLES = STREAMS.flatMap((name) => streamByName(name).tables);
const TEN_YEARS = 10 * 365 * 86_400;
const LT_GLITCH = 10n ** 12n;

type Block = Record<string, unknown>;
type Answer = Record<string, unknown>;

interface Glitch {
  readonly name: string;
  /** Applied to every answer of `/masterchainInfo` (`{ last }`) and `/blocks` (`{ blocks }`). */
  readonly change: (answer: Answer) => void;
  readonly message: RegExp;
}

const plusLt = (block: Block | undefined, field: 'start_lt' | 'end_lt', by: bigint): void => {
  if (block !== undefined) block[field] = String(BigInt(block[field] as string) + by);
};
const shift = (block: Block | undefined): void => {
  plusLt(block, 'start_lt', LT_GLITCH);
  plusLt(block, 'end_lt', LT_GLITCH);
};
const later = (block: Block | undefined, seconds: number): void => {
  if (block !== undefined) block['gen_utime'] = String(Number(block['gen_utime']) + seconds);
};
/** The newest block of a `/blocks` answer. */
const newestListed = (answer: Answer): Block | undefined => (answer['blocks'] as Block[] | undefined)?.[0];
/** The head of a `/masterchainInfo` answer. */
const head = (answer: Answer): Block | undefined => answer['last'] as Block | undefined;
const listed = (answer: Answer): Block[] => (answer['blocks'] as Block[] | undefined) ?? [];

const REFUSAL = '; the run takes no tip from it and writes nothing: run again later, and if it persists, report it to the service$';

const GLITCHES: readonly Glitch[] = [
  {
    name: "the newest listed block's end_lt 10^12 too high",
    change: (answer) => plusLt(newestListed(answer), 'end_lt', LT_GLITCH),
    message: /^chain-etl: \/api\/v3\/blocks gives masterchain block \d+ the lt span \d+\.\.\d+, more than the 1000000000 a block can/,
  },
  {
    name: "the head's end_lt 10^12 too high in /masterchainInfo",
    change: (answer) => plusLt(head(answer), 'end_lt', LT_GLITCH),
    message: /^chain-etl: \/api\/v3\/masterchainInfo gives masterchain block \d+ the lt span \d+\.\.\d+, more than the 1000000000 a block can/,
  },
  {
    name: 'the newest listed block shifted 10^12 lt up',
    change: (answer) => shift(newestListed(answer)),
    message: /^chain-etl: \/api\/v3\/masterchainInfo and \/api\/v3\/blocks disagree about masterchain block \d+: start_lt \d+ vs \d+: one of the answers is wrong/,
  },
  {
    name: 'the head dated ten years ahead in /masterchainInfo',
    change: (answer) => later(head(answer), TEN_YEARS),
    message: /^chain-etl: \/api\/v3\/masterchainInfo dates masterchain block \d+ 20\d\d-\d\d-\d\d \d\d:\d\d:\d\d UTC, \d+ s ahead of this machine's clock/,
  },
  {
    name: 'the newest block dated ten years ahead in both answers',
    change: (answer) => {
      later(head(answer), TEN_YEARS);
      later(newestListed(answer), TEN_YEARS);
    },
    message: /^chain-etl: \/api\/v3\/masterchainInfo dates masterchain block \d+ .+ UTC, \d+ s ahead of this machine's clock/,
  },
  {
    name: 'the newest block shifted 10^12 lt up in both answers',
    change: (answer) => {
      shift(head(answer));
      shift(newestListed(answer));
    },
    message: /^chain-etl: \/api\/v3\/blocks listed masterchain block (\d+) after \d+: block \d+ starts \d+ lt after it ends, more than the 1000000000 a block can/,
  },
  {
    name: 'the block below the newest dated after it',
    change: (answer) => {
      const [newer, older] = listed(answer);
      if (newer !== undefined && older !== undefined) older['gen_utime'] = String(Number(newer['gen_utime']) + 5);
    },
    message: /^chain-etl: \/api\/v3\/blocks listed masterchain block \d+ after \d+, but it is dated later \(.+ UTC after .+ UTC\)/,
  },
  {
    name: 'every block 10^12 lt up in both answers alike',
    change: (answer) => {
      shift(head(answer));
      for (const block of listed(answer)) shift(block);
    },
    message: /^chain-etl: the tip, masterchain block \d+ ending at lt \d+, lies \d+ lt past this warehouse's checkpoint \(lt \d+, in block \d+\): more than 1000000000 per masterchain block/,
  },
];

let work: Workspace;
let devnet: Devnet;
let proxy: MisbehavingServer;
useProxiedDevnet('tip-glitch', { seed: SEED, blocks: BLOCKS }, (setup) => ({ work, devnet, proxy } = setup));

const run = (...args: string[]): Promise<CliResult> => runCliInProcess(args);

const TIP_ANSWERS = new Set(['/api/v3/masterchainInfo', '/api/v3/blocks']);

function glitching(glitch: Glitch | undefined): void {
  proxy.behave((request) => {
    if (glitch === undefined || !TIP_ANSWERS.has(new URL(request.url, proxy.origin).pathname)) return { kind: 'proxy' };
    return { kind: 'proxy', change: (body) => (glitch.change(body), body) };
  });
}

describe('a glitched tip answer', () => {
  for (const [index, glitch] of GLITCHES.entries()) {
    it(`${glitch.name}: exit 1 naming the answer, no checkpoint moves; healthy answers then reach the truth`, async () => {
      const sinkPath = work.sinkPath('duckdb', `glitch-${index}`);
      const pipeline = await work.pipeline({ url: proxy.url, kind: 'duckdb', sinkPath, name: `glitch-${index}.yaml`, streams: STREAMS });
      glitching(undefined);
      expect((await run('sync', pipeline)).code).toBe(0);
      const before = (await readWarehouse('duckdb', sinkPath, { glob: false, tables: TABLES })).checkpoints;
      devnet.grow(3);
      glitching(glitch);
      const refused = await run('sync', pipeline);
      expect(refused.code, describeResult(refused)).toBe(1);
      const lines = messageLines(refused.stderr);
      expect(lines, refused.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(glitch.message);
      expect(lines[0]).toMatch(new RegExp(REFUSAL));
      expect((await readWarehouse('duckdb', sinkPath, { glob: false, tables: TABLES })).checkpoints).toEqual(before);
      glitching(undefined);
      const healthy = await run('sync', pipeline);
      expect(healthy.code, describeResult(healthy)).toBe(0);
      await expectCoveredEqualsTruth(devnet, 'duckdb', sinkPath, { whole: true, streams: STREAMS });
    });
  }

  it('a checkpoint past the newest block the service indexes (as a glitched tip left it): exit 1 naming the stream and the block, nothing written', async () => {
    const sinkPath = work.sinkPath('duckdb', 'ahead');
    const pipeline = await work.pipeline({ url: devnet.url, kind: 'duckdb', sinkPath, name: 'ahead.yaml', streams: STREAMS });
    expect((await run('sync', pipeline)).code).toBe(0);
    const ahead = await moveCheckpoint(sinkPath, 'transactions', LT_GLITCH);
    const before = await readWarehouse('duckdb', sinkPath, { glob: false, tables: TABLES });
    devnet.grow(2);
    const refused = await run('sync', pipeline);
    expect(refused.code, describeResult(refused)).toBe(1);
    expect(messageLines(refused.stderr)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^chain-etl: transactions's checkpoint \\(lt ${ahead}\\) lies past the newest block the service indexes, masterchain block \\d+ \\(.+ UTC\\), ending at lt \\d+: ` +
            'the warehouse was loaded from answers this service no longer gives \\(a replica behind, or a wrong tip an earlier release took\\); ' +
            'run again later, and if it persists, load this service into a new warehouse \\(--out\\)$',
        ),
      ),
    ]);
    const after = await readWarehouse('duckdb', sinkPath, { glob: false, tables: TABLES });
    expect(after.checkpoints).toEqual(before.checkpoints);
    expect(after.tables).toEqual(before.tables);
    const status = await run('status', pipeline);
    expect(status.code, describeResult(status)).toBe(1);
    expect(status.stdout).toMatch(new RegExp(`^transactions +${ahead} +error: its checkpoint lies \\d+ lt past the newest block the service indexes \\(masterchain block \\d+\\): sync refuses to continue from it$`, 'm'));
    expect(status.stdout).toMatch(/^validator_events +\d+ +\d+ s \(\d+ blocks, /m);
    expect(messageLines(status.stderr)).toEqual(['chain-etl: transactions: checkpoint past the newest block the service indexes (see above); sync refuses to continue from it']);
    const json = await run('status', pipeline, '--json');
    expect(json.code).toBe(1);
    const streams = (JSON.parse(json.stdout) as { streams: { stream: string; error: string | null }[] }).streams;
    expect(streams.map((s) => [s.stream, s.error === null ? null : s.error.slice(0, 25)])).toEqual([['transactions', 'its checkpoint lies 99999'], ['validator_events', null], ['blocks', null]]);
  });
});

/** Moves a stream's stored checkpoint (and the end of its coverage) `by` positions up, as a glitched tip did; returns the new position. */
async function moveCheckpoint(sinkPath: string, stream: string, by: bigint): Promise<bigint> {
  const instance = await DuckDBInstance.create(sinkPath);
  const connection = await instance.connect();
  try {
    const [[text]] = (await connection.runAndReadAll(`SELECT position FROM _etl_checkpoints WHERE stream = '${stream}'`)).getRows() as [[string]];
    const record = decodeCheckpoint(text);
    const position = record.position + by;
    const covered = new Coverage(record.covered.ranges.map((range, i, all) => (i === all.length - 1 ? { ...range, to: position } : range)));
    const moved = encodeCheckpoint({ ...record, position, covered });
    await connection.run(`UPDATE _etl_checkpoints SET position = '${moved.replaceAll("'", "''")}' WHERE stream = '${stream}'`);
    return position;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
