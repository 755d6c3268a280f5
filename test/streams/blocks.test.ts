/**
 * The `blocks` stream's request and row: utime paging on gen_utime, the workchain and shard filters,
 * and one row per block with its day.
 */
import { describe, expect, it } from 'vitest';
import { blocksStream, blocksTable } from '../../src/streams/blocks.js';
import { readExample } from './golden-cases.js';
import { PROJECT_ROOT } from '../support/build.js';
import { runStream } from './rows.js';

const page = { from: 1_724_212_353n, to: 1_724_215_999n, limit: 1000, offset: 0 };

describe('blocks request', () => {
  it('pages by utime, ascending, inclusive bounds', () => {
    expect(blocksStream.query({}, page)).toEqual({
      workchain: undefined,
      shard: undefined,
      start_utime: 1_724_212_353,
      end_utime: 1_724_215_999,
      limit: 1000,
      offset: 0,
      sort: 'asc',
    });
  });

  it('sends a shard with its workchain; a workchain filter naming another is a conflict', () => {
    expect(blocksStream.query({ shard: '0:C000000000000000' }, page)).toMatchObject({ workchain: 0, shard: 'C000000000000000' });
    expect(blocksStream.query({ workchain: -1 }, page)).toMatchObject({ workchain: -1, shard: undefined });
    expect(blocksStream.conflictIn!({ workchain: 0, shard: '0:C000000000000000' })).toBeUndefined();
    expect(blocksStream.conflictIn!({ workchain: -1 })).toBeUndefined();
    expect(blocksStream.conflictIn!({ workchain: -1, shard: '0:C000000000000000' })).toBe(
      "the shard 0:C000000000000000 is in workchain 0, not in the workchain filter's -1: remove one of the two filters",
    );
  });
});

describe('blocks row', () => {
  it('gives the real 2024 block its day and a null masterchain reference (that response has none)', () => {
    const [block] = (readExample(PROJECT_ROOT, 'v3-blocks.mainnet.2024-08.PARTIAL.toncenter-com.ton-indexer-issue76.json') as { blocks: unknown[] }).blocks;
    const { rows, rejects } = runStream(blocksStream, [block]);
    expect(rejects).toEqual([]);
    expect(rows.get(blocksTable.name)).toMatchObject([
      { workchain: -1, shard: '8000000000000000', seqno: 39_835_027, block_time: 1_724_212_353, block_date: '2024-08-21', start_lt: 48_598_466_000_000n, tx_count: 3, mc_block_seqno: null },
    ]);
  });

  it('takes the masterchain block that references a shard block', () => {
    const [block] = (readExample(PROJECT_ROOT, 'v3-blocks.mainnet.2024-08.PARTIAL.toncenter-com.ton-indexer-issue76.json') as { blocks: Record<string, unknown>[] }).blocks;
    const shardBlock = { ...block, workchain: 0, masterchain_block_ref: { workchain: -1, shard: '8000000000000000', seqno: 39_835_028 } };
    expect(runStream(blocksStream, [shardBlock]).rows.get(blocksTable.name)).toMatchObject([{ workchain: 0, mc_block_seqno: 39_835_028 }]);
  });
});
