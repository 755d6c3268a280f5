import { Address } from '@ton/core';
import type { Rng } from './rng.js';
import type { Account, AccountKind, AccountStatus } from './model.js';
import { BASECHAIN_SHARDS, CONFIG_RAW, ELECTOR_RAW, MASTERCHAIN_SHARD, TON, VALIDATOR_COUNT } from './constants.js';

export const WALLET_COUNT = 500;
export const NFT_ITEM_COUNT = 150;

export interface TokenSpec {
  readonly name: string;
  readonly symbol: string;
  readonly decimals: number;
  /** Genesis balance of each holder's jetton wallet, and the range of one transfer's amount in bits. */
  readonly holderBalance: bigint;
  readonly transferBits: readonly [number, number];
}

/** The third token's amounts exceed 2^100, to prove no digit is lost downstream. */
export const TOKENS: readonly TokenSpec[] = [
  { name: 'Tether USD', symbol: 'USD₮', decimals: 6, holderBalance: 50_000_000_000n, transferBits: [20, 32] },
  { name: 'Notcoin', symbol: 'NOT', decimals: 9, holderBalance: 10n ** 15n, transferBits: [30, 44] },
  { name: 'Giga', symbol: 'GIGA', decimals: 18, holderBalance: 1n << 115n, transferBits: [100, 108] },
];

const interfacesOf: Readonly<Record<AccountKind, readonly string[]>> = {
  wallet: ['wallet_v4r2'],
  validator_wallet: ['wallet_v3r2'],
  jetton_master: ['jetton_master'],
  jetton_wallet: ['jetton_wallet'],
  nft_collection: ['nft_collection'],
  nft_item: ['nft_item'],
  elector: [],
  config: [],
  dns_collection: ['nft_collection'],
  dns_item: ['nft_item'],
  nft_sale: ['nft_sale_getgems_v3'],
  multisig: ['multisig_v2'],
  multisig_order: ['multisig_order_v2'],
  nominator_pool: ['nominator_pool'],
  vesting_wallet: ['vesting_wallet'],
};

export class Population {
  readonly accounts: Account[] = [];
  readonly byRaw = new Map<string, number>();
  readonly wallets: number[] = [];
  readonly validators: number[] = [];
  readonly masters: number[] = [];
  readonly nftItems: number[] = [];
  readonly elector: number;
  readonly config: number;
  readonly collection: number;
  private readonly codeHashes = new Map<AccountKind, string>();

  constructor(private readonly rng: Rng) {
    this.elector = this.add('elector', -1, hexId(ELECTOR_RAW), 'active', 0n);
    this.config = this.add('config', -1, hexId(CONFIG_RAW), 'active', 0n);
    for (let i = 0; i < VALIDATOR_COUNT; i++) {
      this.validators.push(this.add('validator_wallet', -1, rng.bytes(32), 'active', 2_000_000n * TON));
    }
    for (let i = 0; i < WALLET_COUNT; i++) {
      const active = rng.chance(0.8);
      const balance = active ? BigInt(rng.int(100, 10_000)) * TON + BigInt(rng.int(0, 999_999_999)) : 0n;
      const wallet = this.add('wallet', 0, rng.bytes(32), active ? 'active' : 'nonexist', balance);
      this.accountAt(wallet).jettonWallets = new Map();
      this.wallets.push(wallet);
    }
    TOKENS.forEach((token) => {
      const master = this.add('jetton_master', 0, rng.bytes(32), 'active', 5n * TON);
      this.accountAt(master).token = { name: token.name, symbol: token.symbol, decimals: token.decimals, totalSupply: 0n };
      this.masters.push(master);
    });
    this.masters.forEach((master, t) => {
      const token = TOKENS[t]!;
      for (const wallet of this.wallets) {
        if (this.accountAt(wallet).status !== 'active' || !rng.chance(0.6)) continue;
        this.jettonWalletOf(wallet, master, 'active', token.holderBalance);
      }
    });
    this.collection = this.add('nft_collection', 0, rng.bytes(32), 'active', 10n * TON);
    for (let i = 0; i < NFT_ITEM_COUNT; i++) {
      const item = this.add('nft_item', 0, rng.bytes(32), 'active', TON / 20n);
      const account = this.accountAt(item);
      account.nftIndex = i;
      account.owner = this.randomActiveWallet();
      this.nftItems.push(item);
    }
  }

  accountAt(index: number): Account {
    const account = this.accounts[index];
    if (account === undefined) throw new Error(`no account ${index}`);
    return account;
  }

  randomActiveWallet(): number {
    for (;;) {
      const wallet = this.rng.pick(this.wallets);
      if (this.accountAt(wallet).status === 'active') return wallet;
    }
  }

  /** The owner's jetton wallet for a master, created (status nonexist until its first transaction) when missing. */
  jettonWalletOf(owner: number, master: number, status: AccountStatus = 'nonexist', balance = 0n): number {
    const wallets = this.accountAt(owner).jettonWallets;
    if (wallets === undefined) throw new Error(`account ${owner} cannot own jettons`);
    const existing = wallets.get(master);
    if (existing !== undefined) return existing;
    const wallet = this.add('jetton_wallet', 0, this.rng.bytes(32), status, status === 'active' ? TON / 20n : 0n);
    const account = this.accountAt(wallet);
    account.jettonMaster = master;
    account.owner = owner;
    account.jettonBalance = balance;
    const token = this.accountAt(master).token!;
    token.totalSupply += balance;
    wallets.set(master, wallet);
    return wallet;
  }

  /** An active basechain contract whose code hash (one per kind) is drawn from `rng`, not the population's. */
  addContract(kind: AccountKind, id: Buffer, balance: bigint, rng: Rng): number {
    if (!this.codeHashes.has(kind)) this.codeHashes.set(kind, rng.hash());
    return this.add(kind, 0, id, 'active', balance);
  }

  private add(kind: AccountKind, workchain: -1 | 0, id: Buffer, status: AccountStatus, balance: bigint): number {
    const index = this.accounts.length;
    const hex = id.toString('hex').toUpperCase();
    const raw = `${workchain}:${hex}`;
    const shard = workchain === -1 ? MASTERCHAIN_SHARD : BASECHAIN_SHARDS[(id[0]! & 0x80) === 0 ? 0 : 1];
    this.accounts.push({
      index,
      workchain,
      id,
      raw,
      shard,
      kind,
      interfaces: interfacesOf[kind],
      codeHash: kind === 'elector' || kind === 'config' ? null : this.codeHashOf(kind),
      status,
      balance,
      lastTx: -1,
      nextLt: 0,
      seqno: 0,
    });
    this.byRaw.set(raw, index);
    return index;
  }

  private codeHashOf(kind: AccountKind): string {
    let hash = this.codeHashes.get(kind);
    if (hash === undefined) {
      hash = this.rng.hash();
      this.codeHashes.set(kind, hash);
    }
    return hash;
  }
}

function hexId(raw: string): Buffer {
  return Buffer.from(raw.split(':')[1]!, 'hex');
}

export function addressOfAccount(account: Account): Address {
  return new Address(account.workchain, account.id);
}
