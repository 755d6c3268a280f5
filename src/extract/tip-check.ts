/**
 * A tip is taken only when the answers that name it hang together as a chain: the service's newest
 * block (`/masterchainInfo`) and the blocks listed below it (`/blocks`) agree, each listed block
 * follows the one before it by a plausible step of lt and never goes back in time, and no block is
 * dated in the future. One glitched answer (an lt 10^12 too high, a time years ahead) would
 * otherwise become the run's upper bound and then every stream's checkpoint, and the rows below it
 * would never be read. Each check names the answer and what was wrong; the run ends with exit 1.
 */
import { ApiContractError } from '../api/errors.js';
import { utcTime } from '../core/utc-time.js';
import type { Landmark } from './landmarks.js';

/**
 * Most lt a masterchain block may advance the chain: its own span plus the step from the block
 * before it. Mainnet advances about 1.1 × 10^6 per masterchain block (a block spans a few lt; the
 * next starts at the following multiple of 10^6); this is a thousand times that.
 */
export const MAX_LT_PER_MC_BLOCK = 1_000_000_000n;

/** Seconds a block's time may lie ahead of this machine's clock (clock skew). */
export const MAX_CLOCK_AHEAD_SECONDS = 600;

/**
 * Checks the head `/masterchainInfo` named and `listed`, the `/blocks` answer below it (newest
 * first), against each other and the clock; throws `ApiContractError` naming the first fault.
 */
export function checkTipAnswers(head: Landmark, listed: readonly Landmark[], nowSeconds: number): void {
  for (const [endpoint, block] of [['/api/v3/masterchainInfo', head] as const, ...listed.map((b) => ['/api/v3/blocks', b] as const)]) {
    if (block.endLt < block.startLt) fault(endpoint, `${endpoint} gives masterchain block ${block.seqno} an end_lt ${block.endLt} before its start_lt ${block.startLt}`);
    if (block.endLt - block.startLt > MAX_LT_PER_MC_BLOCK) {
      fault(endpoint, `${endpoint} gives masterchain block ${block.seqno} the lt span ${block.startLt}..${block.endLt}, more than the ${MAX_LT_PER_MC_BLOCK} a block can`);
    }
    if (block.utime > nowSeconds + MAX_CLOCK_AHEAD_SECONDS) {
      fault(endpoint, `${endpoint} dates masterchain block ${block.seqno} ${utcTime(block.utime)}, ${block.utime - nowSeconds} s ahead of this machine's clock`);
    }
  }
  const newest = listed[0];
  if (newest !== undefined && newest.seqno === head.seqno) {
    const differs = differingField(head, newest);
    if (differs !== undefined) {
      fault('/api/v3/blocks', `/api/v3/masterchainInfo and /api/v3/blocks disagree about masterchain block ${head.seqno}: ${differs}: one of the answers is wrong`);
    }
  }
  for (let i = 1; i < listed.length; i += 1) {
    const newer = listed[i - 1]!;
    const older = listed[i]!;
    const where = `/api/v3/blocks listed masterchain block ${older.seqno} after ${newer.seqno}`;
    if (older.seqno !== newer.seqno - 1) fault('/api/v3/blocks', `${where}: not the block before it`);
    if (older.endLt >= newer.startLt) fault('/api/v3/blocks', `${where}, but it ends at lt ${older.endLt}, not before ${newer.seqno} starts (lt ${newer.startLt})`);
    if (newer.startLt - older.endLt > MAX_LT_PER_MC_BLOCK) {
      fault('/api/v3/blocks', `${where}: block ${newer.seqno} starts ${newer.startLt - older.endLt} lt after it ends, more than the ${MAX_LT_PER_MC_BLOCK} a block can`);
    }
    if (older.utime > newer.utime) fault('/api/v3/blocks', `${where}, but it is dated later (${utcTime(older.utime)} after ${utcTime(newer.utime)})`);
  }
}

/**
 * The tip must follow from where the warehouse stands: from the block holding the furthest lt
 * checkpoint, it may advance at most `MAX_LT_PER_MC_BLOCK` per masterchain block. This catches a
 * tip both answers glitch alike (every check of `checkTipAnswers` passes). The holder is among the
 * blocks read with the tip for a run near it; otherwise one more request.
 */
export async function checkTipFollows(tip: Landmark, checkpointLt: bigint, holdingLt: (lt: bigint) => Promise<Landmark | undefined>): Promise<void> {
  if (checkpointLt >= tip.endLt) return;
  const holder = await holdingLt(checkpointLt);
  if (holder === undefined || holder.seqno > tip.seqno) return;
  const most = BigInt(tip.seqno - holder.seqno + 1) * MAX_LT_PER_MC_BLOCK;
  if (tip.endLt - checkpointLt > most) {
    fault(
      '/api/v3/blocks',
      `the tip, masterchain block ${tip.seqno} ending at lt ${tip.endLt}, lies ${tip.endLt - checkpointLt} lt past this warehouse's checkpoint (lt ${checkpointLt}, in block ${holder.seqno}): ` +
        `more than ${MAX_LT_PER_MC_BLOCK} per masterchain block`,
    );
  }
}

function differingField(a: Landmark, b: Landmark): string | undefined {
  if (a.startLt !== b.startLt) return `start_lt ${a.startLt} vs ${b.startLt}`;
  if (a.endLt !== b.endLt) return `end_lt ${a.endLt} vs ${b.endLt}`;
  if (a.utime !== b.utime) return `gen_utime ${a.utime} vs ${b.utime}`;
  if (a.rootHash !== undefined && b.rootHash !== undefined && a.rootHash !== b.rootHash) return `root_hash ${a.rootHash} vs ${b.rootHash}`;
  return undefined;
}

function fault(endpoint: string, problem: string): never {
  throw new ApiContractError(`${problem}; the run takes no tip from it and writes nothing: run again later, and if it persists, report it to the service`, { endpoint });
}
