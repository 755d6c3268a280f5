/**
 * GET /getMasterchainInfo, /getShards (also /shards), /getMasterchainBlockSignatures. The node's view: `last` is
 * the chain HEAD, not the indexed block v3's /masterchainInfo reports.
 */
import { createHash } from 'node:crypto';
import type { Handler } from '../../http/types.js';
import type { Block } from '../../chain/model.js';
import type { DevnetApi } from '../context.js';
import { blockIdExt, headMcBlock, mcBlockAt, shardBlocksOf } from './block-id.js';
import { seqnoParam } from './params.js';

export function blocksHandlers(api: DevnetApi): Record<string, Handler> {
  const chain = api.view.chain;
  const getShards: Handler = (req) => {
    const mc = mcBlockAt(api, seqnoParam(req.query, true));
    return { '@type': 'blocks.shards', shards: shardBlocksOf(api, mc).map(blockIdExt) };
  };
  return {
    getMasterchainInfo: () => {
      const last = headMcBlock(api);
      return {
        '@type': 'blocks.masterchainInfo',
        last: blockIdExt(last),
        state_root_hash: stateRootHash(last),
        init: blockIdExt(chain.mcBlock(0)),
      };
    },
    getShards,
    // The Python gateway's name, still what @ton/ton's TonClient calls.
    shards: getShards,
    getMasterchainBlockSignatures: (req) => {
      const mc = mcBlockAt(api, seqnoParam(req.query, true));
      const signatures = chain.population.validators.map((validator) => {
        const nodeId = sha256(Buffer.from('devnet-node:'), chain.population.accountAt(validator).id);
        return { '@type': 'blocks.signature', node_id_short: nodeId.toString('base64'), signature: signature(mc, nodeId) };
      });
      return { '@type': 'blocks.blockSignatures', id: blockIdExt(mc), signatures };
    },
  };
}

/** The state root hash of a masterchain block: derived from its root hash, stable per block. */
export function stateRootHash(block: Block): string {
  return sha256(Buffer.from('devnet-state:'), Buffer.from(block.rootHash, 'base64')).toString('base64');
}

/** A 64-byte stand-in for the validator's Ed25519 signature over the block id, derived from the block hashes. */
function signature(block: Block, nodeId: Buffer): string {
  const root = Buffer.from(block.rootHash, 'base64');
  const file = Buffer.from(block.fileHash, 'base64');
  return Buffer.concat([sha256(nodeId, root, file), sha256(file, root, nodeId)]).toString('base64');
}

function sha256(...parts: Buffer[]): Buffer {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
}
