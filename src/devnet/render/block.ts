import type { Block } from '../chain/model.js';
import { FIRST_MC_SEQNO, MASTERCHAIN_SHARD } from '../chain/constants.js';
import type { Chain } from '../chain/chain.js';

export function renderBlock(chain: Chain, block: Block): Record<string, unknown> {
  const masterchain = block.workchain === -1;
  return {
    workchain: block.workchain,
    shard: block.shard,
    seqno: block.seqno,
    root_hash: block.rootHash,
    file_hash: block.fileHash,
    global_id: -239,
    version: 0,
    after_merge: false,
    before_split: false,
    after_split: false,
    want_merge: false,
    want_split: false,
    key_block: masterchain && (block.seqno - FIRST_MC_SEQNO) % 100 === 0,
    vert_seqno_incr: false,
    flags: 1,
    gen_utime: String(block.genUtime),
    start_lt: String(block.startLt),
    end_lt: String(block.endLt),
    validator_list_hash_short: 1_732_571_385,
    gen_catchain_seqno: 700_000 + Math.floor((block.mcSeqno - FIRST_MC_SEQNO) / 100),
    min_ref_mc_seqno: block.mcSeqno - 3,
    prev_key_block_seqno: FIRST_MC_SEQNO + Math.floor((block.mcSeqno - FIRST_MC_SEQNO) / 100) * 100,
    vert_seqno: 1,
    master_ref_seqno: masterchain ? 0 : block.mcSeqno - 1,
    rand_seed: block.randSeed,
    created_by: block.createdBy,
    tx_count: block.txs.length,
    masterchain_block_ref: { workchain: -1, shard: MASTERCHAIN_SHARD, seqno: block.mcSeqno },
    prev_blocks: block.seqno > (masterchain ? FIRST_MC_SEQNO : 0) && block.index >= 3 ? [{ workchain: block.workchain, shard: block.shard, seqno: block.seqno - 1 }] : [],
  };
}

export function blockIdOf(block: Block): Record<string, unknown> {
  return { workchain: block.workchain, shard: block.shard, seqno: block.seqno };
}

