/**
 * The `blocks` stream: masterchain and shard blocks as the index records them (`/api/v3/blocks`), one
 * row per block, keyed by (workchain, shard, seqno). With `sort` the service orders blocks by
 * gen_utime (v1.3 then by -workchain, shard, seqno; master leaves ties in no order) and its lt filter
 * is on a block's start_lt, not on that order: the stream pages by utime on `gen_utime`.
 */
import { z } from 'zod';
import { utimePage } from '../api/v3.js';
import { looseObject } from '../api/wire.js';
import { bool, date, hash, int32, logicalTime, text, timestamptz } from '../core/column-kinds.js';
import { defineStream, tableRows } from '../core/stream.js';
import { defineTable, type RowOf } from '../core/table.js';
import { utcDay } from '../core/utc-day.js';
import * as filter from '../options/fields.js';
import { hashString, int32Value, lt, nullish, unixSeconds } from '../transform/fields.js';

const flag = nullish(bool.wire);

/** One `/blocks` item. Every property but the block's id may be null (§6); `masterchain_block_ref` is absent in 2024 responses. */
export const blockItem = looseObject({
  workchain: int32Value,
  shard: z.string(),
  seqno: int32Value,
  root_hash: hashString,
  file_hash: hashString,
  global_id: nullish(int32Value),
  version: nullish(int32Value),
  gen_utime: unixSeconds,
  start_lt: lt,
  end_lt: lt,
  tx_count: nullish(int32Value),
  key_block: flag,
  after_merge: flag,
  before_split: flag,
  after_split: flag,
  want_merge: flag,
  want_split: flag,
  vert_seqno_incr: flag,
  flags: nullish(int32Value),
  vert_seqno: nullish(int32Value),
  gen_catchain_seqno: nullish(int32Value),
  min_ref_mc_seqno: nullish(int32Value),
  prev_key_block_seqno: nullish(int32Value),
  master_ref_seqno: nullish(int32Value),
  validator_list_hash_short: nullish(int32Value),
  rand_seed: nullish(hashString),
  created_by: nullish(hashString),
  masterchain_block_ref: nullish(looseObject({ workchain: int32Value, shard: z.string(), seqno: int32Value })),
});

export type BlockItem = z.output<typeof blockItem>;

export const blocksTable = defineTable({
  name: 'blocks',
  doc: 'One row per block of the masterchain and the shards, keyed by (workchain, shard, seqno).',
  columns: {
    workchain: int32.doc('Workchain of the block: -1 for the masterchain, 0 for the basechain.'),
    shard: text.doc('Shard of the block as unsigned hex, e.g. 8000000000000000 (the whole workchain).'),
    seqno: int32.doc('Sequence number of the block in its shard.'),
    root_hash: hash.doc('Root hash of the block.'),
    file_hash: hash.doc('File hash of the block.'),
    block_time: timestamptz.doc('Time the block was generated (gen_utime).'),
    block_date: date.doc('UTC day of block_time.'),
    start_lt: logicalTime.doc('Logical time the block starts at.'),
    end_lt: logicalTime.doc('Logical time the block ends at.'),
    tx_count: int32.nullable().doc('Transactions in the block.'),
    mc_block_seqno: int32.nullable().doc('Masterchain block that references (commits) the block; a masterchain block names itself.'),
    key_block: bool.nullable().doc('Whether the block is a key block (it changes the configuration or the validator set).'),
    global_id: int32.nullable().doc('Network id: -239 mainnet, -3 testnet.'),
    version: int32.nullable().doc('Block format version.'),
    flags: int32.nullable().doc('Block flags as sent.'),
    after_merge: bool.nullable().doc('Whether the block follows a merge of two shards.'),
    before_split: bool.nullable().doc('Whether the shard splits after this block.'),
    after_split: bool.nullable().doc('Whether the block follows a split of its shard.'),
    want_merge: bool.nullable().doc('Whether the shard asks to be merged.'),
    want_split: bool.nullable().doc('Whether the shard asks to be split.'),
    vert_seqno_incr: bool.nullable().doc('Whether the vertical seqno was incremented.'),
    vert_seqno: int32.nullable().doc('Vertical sequence number.'),
    gen_catchain_seqno: int32.nullable().doc('Catchain seqno of the validator session that generated the block.'),
    min_ref_mc_seqno: int32.nullable().doc('Lowest masterchain block the block refers to.'),
    prev_key_block_seqno: int32.nullable().doc('Last key block before this block.'),
    master_ref_seqno: int32.nullable().doc('Masterchain block a shard block refers to (0 for masterchain blocks).'),
    validator_list_hash_short: int32.nullable().doc('Short hash of the validator list that generated the block.'),
    rand_seed: hash.nullable().doc('Random seed of the block.'),
    created_by: hash.nullable().doc('Public key of the validator that created the block.'),
  },
  primaryKey: ['workchain', 'shard', 'seqno'],
  partitionBy: (row) => row.block_date,
  dayOf: 'block_time',
  clusterBy: 'start_lt',
});

type BlockRow = RowOf<typeof blocksTable>;

const SHARD = /^-?\d{1,10}:[0-9A-Fa-f]{16}$/;

export const blocksStream = defineStream({
  name: 'blocks',
  doc: 'Masterchain and shard blocks, keyed by (workchain, shard, seqno).',
  filters: {
    workchain: filter
      .wholeNumber(-1, 'a workchain: -1 (masterchain) or 0 (basechain)')
      .optional()
      .meta({ description: 'Only blocks of this workchain (-1 masterchain, 0 basechain).', typeLabel: 'integer' }),
    shard: filter
      .matching(SHARD, { expected: 'a shard as workchain:HEX with 16 hex digits, e.g. 0:8000000000000000' })
      .transform((value) => value.toUpperCase())
      .optional()
      .meta({ description: 'Only blocks of this shard, as workchain:HEX (e.g. 0:8000000000000000).', typeLabel: 'shard' }),
  },
  tables: [blocksTable],
  axis: 'utime',
  endpoint: '/api/v3/blocks',
  itemsKey: 'blocks',
  conflictIn: (filters) => {
    const [shardWorkchain] = filters.shard?.split(':') ?? [];
    if (shardWorkchain === undefined || filters.workchain === undefined || filters.workchain === Number(shardWorkchain)) return undefined;
    return `the shard ${filters.shard} is in workchain ${shardWorkchain}, not in the workchain filter's ${filters.workchain}: remove one of the two filters`;
  },
  // The lt filter is on start_lt while the order is gen_utime's: the stream pages by utime.
  query: (filters, page) => {
    const [shardWorkchain, shard] = filters.shard?.split(':') ?? [];
    const workchain = shardWorkchain === undefined ? filters.workchain : Number(shardWorkchain);
    return {
      workchain,
      shard,
      ...utimePage(page),
    };
  },
  metadata: false,
  item: blockItem,
  rescansOverlap: false,
  position: (block) => BigInt(block.gen_utime),
  key: (block) => `${block.workchain}:${block.shard}:${block.seqno}`,
  toRows: (block) => new Map([tableRows(blocksTable, [blockRow(block)])]),
});

function blockRow(b: BlockItem): BlockRow {
  return {
    workchain: b.workchain,
    shard: b.shard,
    seqno: b.seqno,
    root_hash: b.root_hash,
    file_hash: b.file_hash,
    block_time: b.gen_utime,
    block_date: utcDay(b.gen_utime),
    start_lt: b.start_lt,
    end_lt: b.end_lt,
    tx_count: b.tx_count,
    mc_block_seqno: b.masterchain_block_ref?.seqno ?? null,
    key_block: b.key_block,
    global_id: b.global_id,
    version: b.version,
    flags: b.flags,
    after_merge: b.after_merge,
    before_split: b.before_split,
    after_split: b.after_split,
    want_merge: b.want_merge,
    want_split: b.want_split,
    vert_seqno_incr: b.vert_seqno_incr,
    vert_seqno: b.vert_seqno,
    gen_catchain_seqno: b.gen_catchain_seqno,
    min_ref_mc_seqno: b.min_ref_mc_seqno,
    prev_key_block_seqno: b.prev_key_block_seqno,
    master_ref_seqno: b.master_ref_seqno,
    validator_list_hash_short: b.validator_list_hash_short,
    rand_seed: b.rand_seed,
    created_by: b.created_by,
  };
}
