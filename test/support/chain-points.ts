/** Masterchain blocks of a devnet and where they lie on a stream's axis (lt or utime). */
import type { StreamDefinition } from '../../src/core/stream.js';
import type { Devnet } from '../../src/devnet/index.js';

export interface McBlock {
  readonly seqno: number;
  readonly startLt: bigint;
  readonly endLt: bigint;
  readonly utime: number;
}

/** Masterchain block `seqno` as the devnet serves it. */
export function mcBlock(devnet: Devnet, seqno: number): McBlock {
  const block = devnet.truth('blocks').find((b) => b.workchain === -1 && b.seqno === seqno);
  if (block === undefined) throw new Error(`the devnet has no masterchain block ${seqno}`);
  return { seqno, startLt: BigInt(String(block.start_lt)), endLt: BigInt(String(block.end_lt)), utime: Number(block.gen_utime) };
}

/** The last indexed masterchain block: a sync with lag 0 ends there. */
export function tipBlock(devnet: Devnet): McBlock {
  return mcBlock(devnet, devnet.view.indexedSeqno);
}

/** Inclusive range of positions on a stream's axis. */
export interface Bounds {
  readonly from: bigint;
  readonly to: bigint;
}

/** Where a chain point lies on a stream's axis (as the planner computes it from a block). */
export function positionAt(block: McBlock, stream: StreamDefinition): bigint {
  return stream.axis === 'lt' ? block.startLt : BigInt(block.utime);
}

/** The last position a run ending at `tip` covers on a stream's axis (one second is held back on utime). */
export function tipPositionOf(tip: McBlock, stream: StreamDefinition): bigint {
  return stream.axis === 'lt' ? tip.endLt : BigInt(tip.utime - 1);
}
