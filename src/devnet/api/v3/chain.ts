/** GET /masterchainInfo, /blocks, /masterchainBlockShards, /masterchainBlockShardState. */
import type { Handler } from '../../http/types.js';
import type { Block } from '../../chain/model.js';
import { ApiError } from '../../http/api-error.js';
import { BLOCKS_PER_STEP } from '../../chain/chain.js';
import { FIRST_MC_SEQNO } from '../../chain/constants.js';
import { ltParam, pageParams, parseHash, type DevnetApi } from '../context.js';
import { selectPage } from '../paging.js';
import { renderBlock } from '../../render/block.js';

export function chainHandlers(api: DevnetApi): Record<string, Handler> {
  const chain = api.view.chain;
  const visibleBlocks = (): number => (api.view.indexedStep + 1) * BLOCKS_PER_STEP;
  const stepOf = (seqno: number): number => {
    const step = seqno - FIRST_MC_SEQNO;
    if (step < 0 || step > api.view.indexedStep) throw new ApiError(404, `masterchain block ${seqno} not found`);
    return step;
  };
  return {
    // `first` and `last` are the oldest and newest indexed masterchain blocks, not the chain head.
    masterchainInfo: () => ({
      first: renderBlock(chain, chain.mcBlock(0)),
      last: renderBlock(chain, chain.mcBlock(api.view.indexedStep)),
    }),
    blocks: (req) => {
      const q = req.query;
      const workchain = q.int('workchain');
      const shard = q.get('shard')?.toUpperCase();
      const seqno = q.int('seqno');
      const mcSeqno = q.int('mc_seqno');
      const rootHash = q.has('root_hash') ? parseHash('root_hash', q.get('root_hash')!) : undefined;
      const fileHash = q.has('file_hash') ? parseHash('file_hash', q.get('file_hash')!) : undefined;
      const startUtime = q.int('start_utime');
      const endUtime = q.int('end_utime');
      const startLt = ltParam(q, 'start_lt');
      const endLt = ltParam(q, 'end_lt');
      const page = pageParams(q);
      const accept = (b: Block): boolean =>
        (workchain === undefined || b.workchain === workchain) &&
        (shard === undefined || b.shard === shard) &&
        (seqno === undefined || b.seqno === seqno) &&
        (mcSeqno === undefined || b.mcSeqno === mcSeqno) &&
        (rootHash === undefined || b.rootHash === rootHash) &&
        (fileHash === undefined || b.fileHash === fileHash) &&
        (startUtime === undefined || b.genUtime >= startUtime) &&
        (endUtime === undefined || b.genUtime <= endUtime) &&
        (startLt === undefined || b.startLt >= startLt) &&
        (endLt === undefined || b.startLt <= endLt);
      // The service orders by gen_utime (master: nothing more; v1.3 then by -workchain, shard, seqno):
      // the blocks of one second come in a fresh order per request, of which v1.3's is one.
      const tie = { key: (b: Block) => b.genUtime, rng: api.tieRng };
      const blocks = selectPage(0, visibleBlocks(), (i) => chain.blocks[i]!, accept, page, tie);
      return { blocks: blocks.map((b) => renderBlock(chain, b)) };
    },
    masterchainBlockShards: (req) => {
      const step = stepOf(req.query.int('seqno', { required: true }));
      return { blocks: chain.blocksOfStep(step).map((b) => renderBlock(chain, b)) };
    },
    masterchainBlockShardState: (req) => {
      const step = stepOf(req.query.int('seqno', { required: true }));
      return { blocks: chain.blocksOfStep(step).filter((b) => b.workchain !== -1).map((b) => renderBlock(chain, b)) };
    },
  };
}
