/** The users of the devnet: each step they start new traces with external messages to their wallets. */
import type { BodySpec } from './bodies.js';
import type { TraceKind } from './model.js';
import type { Population } from './population.js';
import type { Rng } from './rng.js';
import type { PlannedSend } from './elections.js';
import { TOKENS } from './population.js';
import { TON } from './constants.js';

export interface WalletOrder {
  readonly kind: TraceKind;
  readonly wallet: number;
  readonly to: number;
  readonly value: bigint;
  readonly bounce: boolean;
  readonly body: BodySpec;
}

const COMMENTS = ['thanks!', 'rent for March', 'invoice 1042', 'gm', 'coffee ☕', 'payout', 'refund', 'test'];

export class Traffic {
  private queryId = 1n;

  constructor(
    private readonly population: Population,
    private readonly rng: Rng,
  ) {}

  ordersFor(planned: readonly PlannedSend[], keysOf: (validator: number) => { pubkey: Buffer; adnl: Buffer }, stakeAt: number): WalletOrder[] {
    const orders: WalletOrder[] = planned.map((send) => this.validatorOrder(send, keysOf, stakeAt));
    const count = this.rng.int(3, 11);
    for (let i = 0; i < count; i++) {
      const order = this.userOrder();
      if (order !== undefined) orders.push(order);
    }
    return orders;
  }

  private userOrder(): WalletOrder | undefined {
    const r = this.rng.next();
    if (r < 0.45) return this.tonTransfer();
    if (r < 0.83) return this.jettonTransfer();
    if (r < 0.95) return this.nftTransfer();
    return this.jettonBurn();
  }

  private tonTransfer(): WalletOrder | undefined {
    const wallet = this.richWallet(2n * TON);
    if (wallet === undefined) return undefined;
    const to = this.otherWallet(wallet);
    const destination = this.population.accountAt(to);
    const balance = this.population.accountAt(wallet).balance;
    const cap = balance / 4n < 50n * TON ? balance / 4n : 50n * TON;
    const value = (cap * BigInt(this.rng.int(1, 1000))) / 1000n;
    const bounce = destination.status === 'active' ? true : this.rng.chance(0.5);
    const body: BodySpec = this.rng.chance(0.4) ? { kind: 'text', text: this.rng.pick(COMMENTS) } : { kind: 'empty' };
    return { kind: 'ton_transfer', wallet, to, value, bounce, body };
  }

  private jettonTransfer(): WalletOrder | undefined {
    const t = this.rng.int(0, TOKENS.length - 1);
    const master = this.population.masters[t]!;
    const token = TOKENS[t]!;
    const wallet = this.richWallet(TON);
    if (wallet === undefined) return undefined;
    const jettonWallet = this.population.accountAt(wallet).jettonWallets?.get(master);
    if (jettonWallet === undefined || this.population.accountAt(jettonWallet).status !== 'active') return undefined;
    const balance = this.population.accountAt(jettonWallet).jettonBalance ?? 0n;
    const [lowBits, highBits] = token.transferBits;
    let amount = this.rng.bigBits(this.rng.int(lowBits, highBits)) | (1n << BigInt(lowBits - 1));
    // One transfer in twenty asks for more than the wallet holds and aborts.
    if (this.rng.chance(0.05)) amount = balance + 1n;
    const destination = this.otherWallet(wallet);
    const comment = this.rng.chance(0.3) ? this.rng.pick(COMMENTS) : null;
    const forwardTonAmount = this.rng.chance(0.7) ? 1n : TON / 100n;
    return {
      kind: 'jetton_transfer',
      wallet,
      to: jettonWallet,
      value: TON / 10n,
      bounce: true,
      body: { kind: 'jetton_transfer', queryId: this.nextQueryId(), amount, destination, responseDestination: wallet, forwardTonAmount, comment },
    };
  }

  private jettonBurn(): WalletOrder | undefined {
    const master = this.rng.pick(this.population.masters);
    const wallet = this.richWallet(TON);
    if (wallet === undefined) return undefined;
    const jettonWallet = this.population.accountAt(wallet).jettonWallets?.get(master);
    if (jettonWallet === undefined) return undefined;
    const balance = this.population.accountAt(jettonWallet).jettonBalance ?? 0n;
    if (balance < 100n) return undefined;
    const amount = balance / BigInt(this.rng.int(50, 500));
    return {
      kind: 'jetton_burn',
      wallet,
      to: jettonWallet,
      value: TON / 20n,
      bounce: true,
      body: { kind: 'jetton_burn', queryId: this.nextQueryId(), amount, responseDestination: wallet },
    };
  }

  private nftTransfer(): WalletOrder | undefined {
    const item = this.rng.pick(this.population.nftItems);
    const owner = this.population.accountAt(item).owner!;
    if (this.population.accountAt(owner).balance < TON) return undefined;
    const newOwner = this.otherWallet(owner);
    return {
      kind: 'nft_transfer',
      wallet: owner,
      to: item,
      value: TON / 20n,
      bounce: true,
      body: { kind: 'nft_transfer', queryId: this.nextQueryId(), newOwner, responseDestination: owner, forwardAmount: this.rng.chance(0.5) ? 1n : 0n },
    };
  }

  private validatorOrder(send: PlannedSend, keysOf: (validator: number) => { pubkey: Buffer; adnl: Buffer }, stakeAt: number): WalletOrder {
    const elector = this.population.elector;
    if (send.kind === 'recover_stake') {
      return { kind: 'election_recover', wallet: send.validator, to: elector, value: TON, bounce: true, body: { kind: 'elector_recover_stake', queryId: this.nextQueryId() } };
    }
    const keys = keysOf(send.validator);
    // A wallet cannot send more than it holds: stakes still held by the elector cap the next one.
    const spendable = this.population.accountAt(send.validator).balance - 2n * TON;
    const stake = send.stake < spendable ? send.stake : spendable > 0n ? spendable : 0n;
    return {
      kind: 'election_deposit',
      wallet: send.validator,
      to: elector,
      value: stake + TON,
      bounce: true,
      body: {
        kind: 'elector_new_stake',
        queryId: this.nextQueryId(),
        validatorPubkey: keys.pubkey,
        stakeAt,
        maxFactor: 196_608,
        adnlAddr: keys.adnl,
        signature: this.rng.bytes(64),
      },
    };
  }

  private richWallet(minimum: bigint): number | undefined {
    for (let attempt = 0; attempt < 8; attempt++) {
      const wallet = this.population.randomActiveWallet();
      if (this.population.accountAt(wallet).balance >= minimum * 2n) return wallet;
    }
    return undefined;
  }

  private otherWallet(than: number): number {
    for (;;) {
      const wallet = this.rng.pick(this.population.wallets);
      if (wallet !== than) return wallet;
    }
  }

  private nextQueryId(): bigint {
    this.queryId += BigInt(this.rng.int(1, 1_000_000));
    return this.queryId;
  }
}
