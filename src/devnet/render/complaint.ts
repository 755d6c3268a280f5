/**
 * ValidatorComplaint (/validators/complaints): the complaint as the elector stores it. The
 * description is `no_blk_gen#450e8bd9 from_utime:uint32 found_blocks:uint32`; the complaint hash is
 * the hash of the complaint cell (accused key, description, time, severity, reward address, paid,
 * fines); a complaint passes when the set's votes weigh two thirds of the set.
 */
import { createHash } from 'node:crypto';
import { beginCell } from '@ton/core';
import type { Complaint } from '../chain/model.js';
import type { RenderContext } from './context.js';
import type { Refs } from './refs.js';
import { boc } from './contract-cells.js';
import { byStake, sum, weightInSet } from './validator-set.js';

const NO_BLK_GEN = 0x450e8bd9;

export function renderComplaint(ctx: RenderContext, c: Complaint, refs: Refs): Record<string, unknown> {
  const set = byStake(c.election.participants);
  const totalStake = sum(set);
  const totalWeight = set.reduce((total, p) => total + weightInSet(p, totalStake), 0n);
  const voters = set.flatMap((p, index) => (c.voters.includes(p.stakeHolder) ? [{ p, index }] : []));
  const voted = voters.reduce((total, { p }) => total + weightInSet(p, totalStake), 0n);
  const description = beginCell().storeUint(NO_BLK_GEN, 32).storeUint(c.fromUtime, 32).storeUint(c.foundBlocks, 32).endCell();
  const createdAt = ctx.chain.utimes[c.step]!;
  const complaint = beginCell()
    .storeBuffer(Buffer.from(c.accused.validatorPubkey, 'hex'))
    .storeRef(description)
    .storeUint(createdAt, 32)
    .storeUint(c.severity, 8)
    .storeAddress(ctx.address(c.rewardAddress))
    .storeCoins(c.paid)
    .storeCoins(c.suggestedFine)
    .storeUint(c.suggestedFinePart, 32)
    .endCell();
  refs.add(c.accused.stakeHolder);
  refs.add(c.rewardAddress);
  return {
    cycle_start: cycleStartOf(ctx, c),
    election_id: c.election.electionId,
    complaint_hash: complaint.hash().toString('base64'),
    validator_pubkey: c.accused.validatorPubkey,
    adnl_addr: c.accused.adnlAddr,
    stake_holder_address: ctx.raw(c.accused.stakeHolder),
    description_boc: boc(description),
    created_at: createdAt,
    severity: c.severity,
    reward_address: ctx.raw(c.rewardAddress),
    paid: c.paid.toString(),
    suggested_fine: c.suggestedFine.toString(),
    suggested_fine_part: c.suggestedFinePart,
    voted_validators: voters.map(({ p, index }) => ({ validator_index: index, validator_pubkey: p.validatorPubkey, adnl_addr: p.adnlAddr, weight: weightInSet(p, totalStake).toString() })),
    vset_id: createHash('sha256').update(`vset ${c.election.electionId}`).digest('base64'),
    weight_remaining: ((totalWeight * 2n) / 3n - voted).toString(),
    approved_percent: totalWeight === 0n ? 0 : Number((voted * 10_000n) / totalWeight) / 100,
    is_passed: voted * 3n >= totalWeight * 2n,
  };
}

/** The utime of the first block of the cycle the accused validated in. */
export function cycleStartOf(ctx: RenderContext, c: Complaint): number {
  return ctx.chain.utimes[ctx.chain.stepOfSeqno(c.election.cycleStartMc)]!;
}
