/**
 * The service contracts of the devnet's genesis: TON DNS (a collection, owned domains with wallet
 * records, domains at auction), NFT sales of some domains, a multisig wallet with its orders, a
 * nominator pool and a vesting wallet, in their genesis state. Drawn from their own Rng (seeded from
 * the chain's seed), so adding them changed nothing the chain already had; their traffic is
 * service-traffic.ts's.
 */
import { createHash } from 'node:crypto';
import { Rng } from './rng.js';
import type { Population } from './population.js';
import { GENESIS_UTIME, TON } from './constants.js';

/** Mixed into the chain's seed for the services' Rng. */
const SERVICES_SALT = 0x5e41ce5;
const DAY = 86_400;

export interface DnsAuction {
  readonly bidder: number;
  readonly bid: bigint;
  readonly lastFillUp: number;
  /** Unix time the auction ends: before genesis it is won (unclaimed), after it still bidding. */
  readonly endTime: number;
}

export interface DnsItem {
  readonly account: number;
  /** Full domain, e.g. `alice.ton`. */
  readonly domain: string;
  /** The NFT index: sha256 of the name without `.ton`, as the DNS collection numbers its items. */
  readonly index: bigint;
  /** null while at auction (the collection holds it). */
  readonly owner: number | null;
  /** `dns_wallet` record: the wallet the domain resolves to. */
  readonly wallet: number | null;
  readonly auction: DnsAuction | null;
}

export interface NftSale {
  readonly account: number;
  readonly item: DnsItem;
  readonly seller: number;
  readonly marketplace: number;
  readonly price: bigint;
  readonly createdAt: number;
}

export interface OrderAction {
  readonly destination: number;
  readonly value: bigint;
  readonly comment: string;
}

export interface MultisigOrder {
  readonly account: number;
  readonly seqno: number;
  readonly approvals: readonly boolean[];
  readonly expiration: number;
  readonly sentForExecution: boolean;
  readonly actions: readonly OrderAction[];
}

export interface Multisig {
  readonly account: number;
  readonly signers: readonly number[];
  readonly proposers: readonly number[];
  readonly threshold: number;
  readonly orders: readonly MultisigOrder[];
}

export interface Nominator {
  readonly wallet: number;
  readonly balance: bigint;
  readonly pending: bigint;
}

export interface NominatorPool {
  readonly account: number;
  /** A validator wallet of the chain. */
  readonly validator: number;
  readonly validatorAmount: bigint;
  /** Share of rewards the validator keeps, in 1/10000. */
  readonly validatorRewardShare: number;
  readonly maxNominators: number;
  readonly minValidatorStake: bigint;
  readonly minNominatorStake: bigint;
  readonly nominators: readonly Nominator[];
}

export interface VestingWallet {
  readonly account: number;
  readonly owner: number;
  readonly sender: number;
  readonly startTime: number;
  readonly totalAmount: bigint;
  readonly totalDuration: number;
  readonly unlockPeriod: number;
  readonly cliffDuration: number;
  readonly whitelist: readonly number[];
}

const NAMES = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy', 'mallory', 'oscar', 'peggy', 'trent'];

export class Services {
  readonly dnsCollection: number;
  readonly dnsItems: DnsItem[] = [];
  readonly sales: NftSale[] = [];
  readonly multisig: Multisig;
  readonly pool: NominatorPool;
  readonly vesting: VestingWallet;

  constructor(population: Population, seed: number) {
    const rng = new Rng((seed ^ SERVICES_SALT) >>> 0);
    const active = population.wallets.filter((w) => population.accountAt(w).status === 'active');
    const wallet = (): number => rng.pick(active);
    const contract = (kind: Parameters<Population['addContract']>[0], balance: bigint): number => population.addContract(kind, rng.bytes(32), balance, rng);

    this.dnsCollection = contract('dns_collection', 10n * TON);
    const marketplace = wallet();
    // One collector leads an auction of each state; the others have one each.
    const collector = wallet();
    NAMES.forEach((name, i) => {
      const account = contract('dns_item', TON / 20n);
      const domain = `${name}${rng.int(1, 999)}.ton`;
      const index = BigInt(`0x${createHash('sha256').update(domain.slice(0, -'.ton'.length)).digest('hex')}`);
      if (i < 4) {
        // At auction: two won before genesis and not claimed yet, two still bidding.
        const endTime = i < 2 ? GENESIS_UTIME - rng.int(1, 5) * DAY : GENESIS_UTIME + rng.int(30, 365) * DAY;
        const auction = { bidder: i % 2 === 0 ? collector : wallet(), bid: BigInt(rng.int(10, 500)) * TON, lastFillUp: endTime - 7 * DAY, endTime };
        this.dnsItems.push({ account, domain, index, owner: null, wallet: null, auction });
        return;
      }
      const holder = wallet();
      const item = { account, domain, index, wallet: rng.chance(0.8) ? holder : null, auction: null };
      if (i < 7) {
        // Listed for sale: the sale contract holds the item for the seller.
        const sale = contract('nft_sale', TON / 10n);
        const dns = { ...item, owner: sale };
        this.dnsItems.push(dns);
        this.sales.push({ account: sale, item: dns, seller: holder, marketplace, price: BigInt(rng.int(5, 900)) * TON, createdAt: GENESIS_UTIME - rng.int(1, 90) * DAY });
        return;
      }
      this.dnsItems.push({ ...item, owner: holder });
    });

    const signers = [wallet(), wallet(), wallet(), wallet(), wallet()];
    const multisig = contract('multisig', BigInt(rng.int(1_000, 50_000)) * TON);
    const threshold = 3;
    const orders: MultisigOrder[] = [0, 1, 2].map((seqno) => {
      const approvals = signers.map((_, s) => (seqno === 0 ? s < threshold : rng.chance(0.4)));
      return {
        account: contract('multisig_order', TON / 10n),
        seqno,
        approvals,
        expiration: GENESIS_UTIME + rng.int(1, 30) * DAY,
        sentForExecution: approvals.filter(Boolean).length >= threshold,
        actions: [{ destination: wallet(), value: BigInt(rng.int(1, 1_000)) * TON, comment: `payout ${seqno + 1}` }],
      };
    });
    this.multisig = { account: multisig, signers, proposers: [wallet()], threshold, orders };

    const nominators = Array.from({ length: 6 }, () => ({ wallet: wallet(), balance: BigInt(rng.int(10_000, 200_000)) * TON, pending: rng.chance(0.3) ? BigInt(rng.int(10_000, 50_000)) * TON : 0n }));
    const validatorAmount = BigInt(rng.int(50_000, 100_000)) * TON;
    const pooled = nominators.reduce((sum, n) => sum + n.balance + n.pending, validatorAmount);
    this.pool = {
      account: contract('nominator_pool', pooled),
      validator: rng.pick(population.validators),
      validatorAmount,
      validatorRewardShare: 4_000,
      maxNominators: 40,
      minValidatorStake: 10_000n * TON,
      minNominatorStake: 100n * TON,
      nominators,
    };

    const totalAmount = BigInt(rng.int(10_000, 1_000_000)) * TON;
    this.vesting = {
      account: contract('vesting_wallet', totalAmount),
      owner: wallet(),
      sender: wallet(),
      startTime: GENESIS_UTIME - 180 * DAY,
      totalAmount,
      totalDuration: 4 * 365 * DAY,
      unlockPeriod: 30 * DAY,
      cliffDuration: 365 * DAY,
      whitelist: [population.elector, this.pool.account],
    };
  }

  /** The DNS item an account is, if any. */
  dnsItemOf(account: number): DnsItem | undefined {
    return this.dnsItems.find((item) => item.account === account);
  }
}
