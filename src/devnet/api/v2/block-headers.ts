/**
 * GET /lookupBlock (by seqno, lt or unixtime), /getBlockHeader, /getShardBlockProof,
 * /getConsensusBlock, /getOutMsgQueueSize: block metadata as the node reports it, over the whole
 * chain up to the HEAD.
 */
import type { Handler } from '../../http/types.js';
import type { QueryParams } from '../../http/query-params.js';
import type { Block } from '../../chain/model.js';
import { ApiError } from '../../http/api-error.js';
import { FIRST_MC_SEQNO, FIRST_SHARD_SEQNO } from '../../chain/constants.js';
import { renderBlock } from '../../render/block.js';
import type { DevnetApi } from '../context.js';
import { blockAt, blockIdExt, headMcBlock, identifiedBlock, mcBlockAt, shardBlocksOf } from './block-id.js';
import { int32Param, int64Param, shardParam } from './params.js';

/** What the node reports as its external message queue limit. */
const EXT_MSG_QUEUE_SIZE_LIMIT = 8_000;

export function blockHeadersHandlers(api: DevnetApi): Record<string, Handler> {
  return {
    lookupBlock: (req) => blockIdExt(lookupBlock(api, req.query)),
    getBlockHeader: (req) => {
      const block = identifiedBlock(api, req.query);
      const header = renderBlock(api.view.chain, block);
      return {
        '@type': 'blocks.header',
        id: blockIdExt(block),
        global_id: header.global_id,
        version: header.version,
        after_merge: header.after_merge,
        after_split: header.after_split,
        before_split: header.before_split,
        want_merge: header.want_merge,
        want_split: header.want_split,
        validator_list_hash_short: header.validator_list_hash_short,
        catchain_seqno: header.gen_catchain_seqno,
        min_ref_mc_seqno: header.min_ref_mc_seqno,
        is_key_block: header.key_block,
        prev_key_block_seqno: header.prev_key_block_seqno,
        start_lt: header.start_lt,
        end_lt: header.end_lt,
        gen_utime: block.genUtime,
        prev_blocks: previousBlocks(api, block).map(blockIdExt),
      };
    },
    getShardBlockProof: (req) => {
      const block = blockAt(api, int32Param(req.query, 'workchain', true), shardParam(req.query, true), int32Param(req.query, 'seqno', true));
      const fromSeqno = int32Param(req.query, 'from_seqno');
      const from = fromSeqno === undefined ? headMcBlock(api) : mcBlockAt(api, fromSeqno);
      const mc = mcBlockAt(api, block.mcSeqno);
      if (from.seqno < mc.seqno) throw new ApiError(500, `LITE_SERVER_ERROR: block ${mc.seqno} is newer than from_seqno ${from.seqno}`);
      // The devnet signs nothing, so it has no Merkle proofs to give: the links name the blocks only.
      return {
        '@type': 'blocks.shardBlockProof',
        from: blockIdExt(from),
        mc_id: blockIdExt(mc),
        links: block.workchain === -1 ? [] : [{ '@type': 'blocks.shardBlockLink', id: blockIdExt(block), proof: '' }],
        mc_proof: [],
      };
    },
    getConsensusBlock: () => {
      const head = headMcBlock(api);
      return { '@type': 'ext.blocks.consensusBlock', consensus_block: head.seqno, timestamp: head.genUtime };
    },
    getOutMsgQueueSize: () => {
      const head = headMcBlock(api);
      return {
        '@type': 'blocks.outMsgQueueSizes',
        shards: [head, ...shardBlocksOf(api, head)].map((block) => ({ '@type': 'blocks.outMsgQueueSize', id: blockIdExt(block), size: 0 })),
        ext_msg_queue_size_limit: EXT_MSG_QUEUE_SIZE_LIMIT,
      };
    },
  };
}

function previousBlocks(api: DevnetApi, block: Block): Block[] {
  return block.seqno === firstSeqnoOf(block.workchain) ? [] : [blockAt(api, block.workchain, block.shard, block.seqno - 1)];
}

/**
 * Exactly one of `seqno`, `lt` (the block whose lt range holds it, else the first after it) and
 * `unixtime` (the last block generated at or before it) selects a block of the shard.
 */
function lookupBlock(api: DevnetApi, q: QueryParams): Block {
  const workchain = int32Param(q, 'workchain', true);
  const shard = shardParam(q, true);
  const seqno = int32Param(q, 'seqno');
  const lt = int64Param(q, 'lt');
  const unixtime = int64Param(q, 'unixtime');
  if ([seqno, lt, unixtime].filter((v) => v !== undefined).length !== 1) {
    throw new ApiError(422, 'exactly one of seqno, lt, unixtime should be specified');
  }
  if (lt !== undefined && lt < 0n) throw new ApiError(422, 'lt should be non-negative');
  if (unixtime !== undefined && unixtime < 0n) throw new ApiError(422, 'unixtime should be non-negative');
  if (seqno !== undefined) return blockAt(api, workchain, shard, seqno);
  const first = blockAt(api, workchain, shard, firstSeqnoOf(workchain));
  const steps = api.view.headStep + 1;
  const byStep = (step: number): Block => blockAt(api, workchain, shard, first.seqno + step);
  if (lt !== undefined) {
    const step = firstStep(steps, (s) => BigInt(byStep(s).endLt) > lt);
    if (step === steps) throw new ApiError(500, `LITE_SERVER_NOTREADY: cannot find block (${workchain},${shard.toLowerCase()}) lt=${lt}: lt not in db`);
    return byStep(step);
  }
  const step = firstStep(steps, (s) => BigInt(byStep(s).genUtime) > unixtime!) - 1;
  if (step < 0) throw new ApiError(500, `LITE_SERVER_NOTREADY: cannot find block (${workchain},${shard.toLowerCase()}) utime=${unixtime}: ut not in db`);
  return byStep(step);
}

function firstSeqnoOf(workchain: number): number {
  return workchain === -1 ? FIRST_MC_SEQNO : FIRST_SHARD_SEQNO;
}

/** The first step in [0, steps) where a monotone predicate holds, or `steps`. */
function firstStep(steps: number, holds: (step: number) => boolean): number {
  let lo = 0;
  let hi = steps;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (holds(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
