/**
 * The multisig's orders as their contracts keep them while the chain runs: which signers approved
 * each and whether it was sent for execution. The genesis orders (services.ts) are the start; an
 * approval that brings an order to the threshold sends it for execution.
 */
import { createHash } from 'node:crypto';
import type { Multisig, MultisigOrder } from './services.js';

interface OrderState {
  readonly approvals: boolean[];
  sentForExecution: boolean;
}

export class MultisigLedger {
  private readonly states = new Map<number, OrderState>();
  /** `signers_hash` of the execute message: a hash of the signer list the orders were made for. */
  readonly signersHash: Buffer;

  constructor(readonly genesis: Multisig) {
    for (const order of genesis.orders) this.states.set(order.account, { approvals: [...order.approvals], sentForExecution: order.sentForExecution });
    this.signersHash = createHash('sha256').update(genesis.signers.join(',')).digest();
  }

  orderAt(account: number): MultisigOrder | undefined {
    return this.genesis.orders.find((order) => order.account === account);
  }

  /** Orders still waiting for approvals, in seqno order. */
  get openOrders(): MultisigOrder[] {
    return this.genesis.orders.filter((order) => !this.state(order).sentForExecution);
  }

  /** Signers (by index) who have not approved an order yet. */
  missingApprovals(order: MultisigOrder): number[] {
    return this.state(order).approvals.flatMap((approved, i) => (approved ? [] : [i]));
  }

  /** Records a signer's approval; the order's approvals after it and whether it now goes for execution. */
  approve(order: MultisigOrder, signerIndex: number): { readonly approvals: readonly boolean[]; readonly execute: boolean } {
    const state = this.state(order);
    state.approvals[signerIndex] = true;
    const execute = state.approvals.filter(Boolean).length >= this.genesis.threshold;
    state.sentForExecution = execute;
    return { approvals: [...state.approvals], execute };
  }

  private state(order: MultisigOrder): OrderState {
    return this.states.get(order.account)!;
  }
}
