/**
 * Blocks as the node (v2) sees them: the whole chain up to the HEAD (`view.headStep`), not the
 * indexed prefix, and block ids as `ton.blockIdExt` with the shard as a signed 64-bit decimal.
 */
import type { Block } from '../../chain/model.js';
import { BASECHAIN_SHARDS, FIRST_MC_SEQNO, FIRST_SHARD_SEQNO, MASTERCHAIN_SHARD } from '../../chain/constants.js';
import { ApiError } from '../../http/api-error.js';
import type { QueryParams } from '../../http/query-params.js';
import type { DevnetApi } from '../context.js';
import { hashParam, int32Param, shardParam } from './params.js';

/** `8000000000000000` → `-9223372036854775808`. */
export function signedShard(shardHex: string): string {
  return BigInt.asIntN(64, BigInt(`0x${shardHex}`)).toString();
}

export function blockIdExt(block: Block): Record<string, unknown> {
  return {
    '@type': 'ton.blockIdExt',
    workchain: block.workchain,
    shard: signedShard(block.shard),
    seqno: block.seqno,
    root_hash: block.rootHash,
    file_hash: block.fileHash,
  };
}

/**
 * What a liteserver answers for a block it does not have (a seqno before the devnet's first block,
 * past the head, an unknown shard or hashes that do not match): 500
 * `LITE_SERVER_NOTREADY: cannot find block (wc,shard) seqno=N: seqno not in db`, as the gateway relays it.
 */
export function blockNotFound(workchain: number, shardHex: string, seqno: number): ApiError {
  return new ApiError(500, `LITE_SERVER_NOTREADY: cannot find block (${workchain},${shardHex.toLowerCase()}) seqno=${seqno}: seqno not in db`);
}

/** The masterchain block with this seqno, if the node has it. */
export function mcBlockAt(api: DevnetApi, seqno: number): Block {
  const step = seqno - FIRST_MC_SEQNO;
  if (step < 0 || step > api.view.headStep) throw blockNotFound(-1, MASTERCHAIN_SHARD, seqno);
  return api.view.chain.mcBlock(step);
}

export function headMcBlock(api: DevnetApi): Block {
  return api.view.chain.mcBlock(api.view.headStep);
}

/** The basechain shard blocks committed by a masterchain block (one per shard, every step). */
export function shardBlocksOf(api: DevnetApi, mc: Block): Block[] {
  const step = mc.seqno - FIRST_MC_SEQNO;
  return api.view.chain.blocksOfStep(step).filter((b) => b.workchain === 0);
}

/** A block by its (workchain, shard, seqno) — seqno is the shard's own for basechain blocks. */
export function blockAt(api: DevnetApi, workchain: number, shardHex: string, seqno: number): Block {
  const chain = api.view.chain;
  let block: Block | undefined;
  if (workchain === -1 && shardHex === MASTERCHAIN_SHARD) {
    const step = seqno - FIRST_MC_SEQNO;
    if (step >= 0 && step <= api.view.headStep) block = chain.mcBlock(step);
  } else if (workchain === 0 && (BASECHAIN_SHARDS as readonly string[]).includes(shardHex)) {
    const step = seqno - FIRST_SHARD_SEQNO;
    if (step >= 0 && step <= api.view.headStep) block = chain.blocksOfStep(step).find((b) => b.shard === shardHex);
  }
  if (block === undefined) throw blockNotFound(workchain, shardHex, seqno);
  return block;
}

/** A block by workchain, shard and seqno whose root_hash / file_hash, when given, must match. */
export function identifiedBlock(api: DevnetApi, q: QueryParams): Block {
  const workchain = int32Param(q, 'workchain', true);
  const shard = shardParam(q, true);
  const seqno = int32Param(q, 'seqno', true);
  const rootHash = hashParam(q, 'root_hash');
  const fileHash = hashParam(q, 'file_hash');
  const block = blockAt(api, workchain, shard, seqno);
  if ((rootHash !== undefined && rootHash !== block.rootHash) || (fileHash !== undefined && fileHash !== block.fileHash)) {
    throw blockNotFound(workchain, shard, seqno);
  }
  return block;
}
