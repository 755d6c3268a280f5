/**
 * The multisig's traffic: now and then a signer who has not approved an open order approves it
 * (multisig-ledger.ts; the approval that reaches the threshold has the order executed). Drawn from its
 * own Rng (seeded from the chain's seed), so the other service traffic draws what it drew before.
 */
import type { MultisigLedger } from './multisig-ledger.js';
import type { Population } from './population.js';
import type { WalletOrder } from './traffic.js';
import { Rng } from './rng.js';
import { TON } from './constants.js';

/** Mixed into the chain's seed for this traffic's Rng. */
const MULTISIG_TRAFFIC_SALT = 0x3d5a9e21;
const APPROVE_CHANCE = 0.02;

export class MultisigTraffic {
  private readonly rng: Rng;
  private queryId = 1n;

  constructor(
    private readonly multisig: MultisigLedger,
    private readonly population: Population,
    seed: number,
  ) {
    this.rng = new Rng((seed ^ MULTISIG_TRAFFIC_SALT) >>> 0);
  }

  /** The signers' orders of a step: at most one approval. */
  ordersAt(): WalletOrder[] {
    if (!this.rng.chance(APPROVE_CHANCE)) return [];
    const open = this.multisig.openOrders;
    if (open.length === 0) return [];
    const order = this.rng.pick(open);
    const signerIndex = this.rng.pick(this.multisig.missingApprovals(order));
    const wallet = this.multisig.genesis.signers[signerIndex]!;
    if (this.population.accountAt(wallet).balance < TON) return [];
    this.queryId += BigInt(this.rng.int(1, 1_000_000));
    return [{ kind: 'ton_transfer', wallet, to: order.account, value: TON / 10n, bounce: true, body: { kind: 'multisig_approve', queryId: this.queryId, signerIndex } }];
  }
}
