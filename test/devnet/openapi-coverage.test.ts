/**
 * Every path of the v3 OpenAPI is served (none answers 404; the devnet serves no path the spec lacks),
 * and the paths beyond the chain's datasets (services, v2 proxies, utilities, pending lists) answer
 * their 200 schema: patched (the v3 errata P1–P4 of test/support/spec-errata.ts) and closed (no property the spec lacks).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Address, beginCell, external, storeMessage } from '@ton/core';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import type { Services } from '../../src/devnet/chain/services.js';
import { devnetRoutes } from '../../src/devnet/api/routes.js';
import { buildDevnetApi } from '../../src/devnet/index.js';
import { DevnetClient, type JsonReply, type Query } from '../support/http.js';
import { loadSpec, specResponses } from '../support/openapi.js';

const KEY = 'K';
const spec = specResponses();
const closedSpec = specResponses({ closed: true });
const paths = loadSpec().paths as Record<string, Record<string, unknown>>;

let devnet: Devnet;
let client: DevnetClient;
let services: Services;

beforeAll(async () => {
  // Past the nominator pool's first returned stake (its rewards), at block 230.
  devnet = await startDevnet({ blocks: 260, keys: new Map([[KEY, 'mainnet']]), keyRps: 1000 });
  client = new DevnetClient(devnet.url, KEY);
  services = devnet.generator.chain.services;
});

afterAll(async () => {
  await devnet?.close();
});

const raw = (account: number): string => devnet.generator.chain.population.accountAt(account).raw;

interface Case {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly call: () => Promise<JsonReply>;
  /** The list that must not be empty (undefined: the body is one object). */
  readonly items?: string;
}

const get = (path: string, query: () => Query, items?: string): Case => ({ method: 'GET', path, call: () => client.v3(path, query()), items });
const post = (path: string, body: () => unknown, items?: string): Case => ({ method: 'POST', path, call: () => client.post('v3', path, body()), items });

/** A wallet external as the wallet accepts it (the devnet checks wallet id, expiry and seqno, not the signature). */
function externalBoc(): string {
  const chain = devnet.generator.chain;
  const wallet = chain.population.accountAt(chain.population.wallets.find((w) => chain.population.accountAt(w).status === 'active')!);
  const body = beginCell().storeBuffer(Buffer.alloc(64)).storeUint(698_983_191, 32).storeUint(chain.utimes.at(-1)! + 60, 32).storeUint(wallet.seqno, 32).storeUint(0, 8).endCell();
  return beginCell().store(storeMessage(external({ to: new Address(0, wallet.id), body }))).endCell().toBoc().toString('base64');
}

const CASES: readonly Case[] = [
  get('addressInformation', () => ({ address: raw(devnet.generator.chain.population.wallets[1]!) })),
  get('walletInformation', () => ({ address: raw(devnet.generator.chain.population.validators[0]!) })),
  get('adjacentTransactions', () => ({ hash: firstWalletTx() }), 'transactions'),
  get('transactionsByMessage', () => ({ msg_hash: internalMessageHash() }), 'transactions'),
  get('decode', () => ({ opcodes: ['0x0f8a7ea5', '7362d09c', '0', '0xdeadbeef'], bodies: [beginCell().storeUint(0, 32).storeStringTail('gm').endCell().toBoc().toString('base64')] }), 'opcodes'),
  post('decode', () => ({ opcodes: ['0x178d4519'], bodies: [beginCell().storeUint(0xd53276db, 32).storeUint(7, 64).endCell().toBoc().toString('hex')] }), 'bodies'),
  get('dns/records', () => ({ wallet: raw(services.dnsItems.find((item) => item.wallet !== null)!.wallet!) }), 'records'),
  get('dns/activeAuctions', () => ({ bidder: raw(services.dnsItems.find((item) => item.auction !== null)!.auction!.bidder), include_nft_items: true }), 'auctions'),
  post('estimateFee', () => ({ address: raw(devnet.generator.chain.population.wallets[1]!), body: beginCell().storeUint(0, 32).endCell().toBoc().toString('base64'), ignore_chksig: true })),
  post('message', () => ({ boc: externalBoc() })),
  get('multisig/wallets', () => ({ wallet_address: raw(services.multisig.signers[0]!) }), 'multisigs'),
  get('multisig/orders', () => ({ multisig_address: raw(services.multisig.account), parse_actions: true }), 'orders'),
  get('nft/collections', () => ({}), 'nft_collections'),
  get('nft/sales', () => ({ address: services.sales.map((sale) => raw(sale.account)) }), 'nft_sales'),
  post('runGetMethod', () => ({ address: raw(devnet.generator.chain.population.masters[0]!), method: 'get_jetton_data', stack: [] }), 'stack'),
  get('staking/nominatorPools/pool', () => ({ pool: raw(services.pool.account) }), 'active_nominators'),
  get('staking/nominatorPools/nominator', () => ({ nominator: raw(services.pool.nominators[0]!.wallet) }), 'nominator_pools'),
  get('vesting', () => ({ wallet_address: raw(services.vesting.owner) }), 'vesting_contracts'),
  get('validators/complaints', () => ({ limit: 100 }), 'complaints'),
  get('staking/nominatorPools/nominatorEvents', () => ({ pool: raw(services.pool.account) }), 'events'),
  get('staking/nominatorPools/nominatorRewards', () => ({ pool: raw(services.pool.account), nominator: raw(services.pool.nominators[0]!.wallet) }), 'rewards'),
  get('staking/nominatorPools/validatorEvents', () => ({ pool: raw(services.pool.account) }), 'events'),
  get('staking/nominatorPools/validatorRewards', () => ({ pool: raw(services.pool.account), validator: raw(services.pool.validator) }), 'rewards'),
];

/** Paths whose answer is empty because the chain implies nothing for them (reason beside each). */
const EMPTY_BY_CHAIN: readonly (Case & { readonly why: string })[] = [
  { ...get('pendingTransactions', () => ({ account: raw(devnet.generator.chain.population.wallets[0]!) }), 'transactions'), why: 'a static chain has no mempool' },
  { ...get('pendingTraces', () => ({ account: raw(devnet.generator.chain.population.wallets[0]!) }), 'traces'), why: 'a static chain has no mempool' },
  { ...get('pendingActions', () => ({ account: raw(devnet.generator.chain.population.wallets[0]!) }), 'actions'), why: 'a static chain has no mempool' },
];

/** An internal message both of whose transactions are indexed (read from the model: rendering the truth takes long enough for a kept-alive socket to expire). */
function internalMessageHash(): string {
  const chain = devnet.generator.chain;
  return chain.txs.find((tx) => tx.inMsg !== null && tx.inMsg.source !== null && tx.mcSeqno < chain.headSeqno - 3)!.inMsg!.hash;
}

/** A wallet's transaction on an external message, whose transfer was delivered: it has a parent-less trace and children. */
function firstWalletTx(): string {
  const chain = devnet.generator.chain;
  return chain.txs.find((tx) => tx.inMsg?.source === null && tx.outMsgs.length > 0 && tx.mcSeqno < chain.headSeqno - 3)!.hash;
}

describe('every path of the v3 OpenAPI', () => {
  it('is served, and nothing else is', () => {
    const served = Object.keys(devnetRoutes(buildDevnetApi({ blocks: 3 })).v3).sort();
    const specified = Object.keys(paths).map((path) => path.slice('/api/v3/'.length)).sort();
    expect(specified.length).toBe(48);
    expect(served).toEqual(specified);
  });

  it('answers something other than 404, for every method the spec lists', async () => {
    const notFound: string[] = [];
    for (const [path, operations] of Object.entries(paths)) {
      const endpoint = path.slice('/api/v3/'.length);
      for (const method of Object.keys(operations)) {
        const reply = method === 'post' ? await client.post('v3', endpoint, {}) : await client.v3(endpoint);
        if (reply.status === 404) notFound.push(`${method} ${path}: ${reply.text}`);
      }
    }
    expect(notFound).toEqual([]);
  });

  for (const c of CASES) {
    it(`${c.method} /api/v3/${c.path} matches its 200 schema, with items`, async () => {
      const reply = await c.call();
      expect(reply.status, reply.text.slice(0, 300)).toBe(200);
      if (c.items !== undefined) expect((reply.body as Record<string, unknown[]>)[c.items]?.length ?? 0, reply.text.slice(0, 300)).toBeGreaterThan(0);
      expect(spec.errors(c.path, reply.body)).toEqual([]);
      expect(closedSpec.errors(c.path, reply.body)).toEqual([]);
    });
  }

  for (const c of EMPTY_BY_CHAIN) {
    it(`${c.method} /api/v3/${c.path} matches its 200 schema, empty: ${c.why}`, async () => {
      const reply = await c.call();
      expect(reply.status, reply.text.slice(0, 300)).toBe(200);
      expect((reply.body as Record<string, unknown[]>)[c.items!]).toEqual([]);
      expect(closedSpec.errors(c.path, reply.body)).toEqual([]);
    });
  }
});
