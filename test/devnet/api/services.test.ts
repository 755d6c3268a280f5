/**
 * The genesis service contracts (chain/services.ts) through their v3 paths: DNS records and
 * auctions, NFT collections and sales, the multisig and its orders, the nominator pool, the vesting
 * wallet; parameter rules and error answers. The services draw from their own Rng: the chain itself
 * is the one the same seed gave before they existed (determinism.test.ts pins its hashes).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Address, Cell } from '@ton/core';
import { buildDevnetApi } from '../../../src/devnet/index.js';
import type { Services } from '../../../src/devnet/chain/services.js';
import { GENESIS_UTIME } from '../../../src/devnet/chain/constants.js';
import { callV3 } from '../../support/devnet-routes.js';
import { apiErrorOf } from '../../support/api-error.js';
import type { Query } from '../../support/http.js';

type Row = Record<string, any>;

let api: ReturnType<typeof buildDevnetApi>;
let services: Services;
const raw = (account: number): string => api.view.chain.population.accountAt(account).raw;
const v3 = (endpoint: string, query: Query = {}): Row => callV3<Row>(api, endpoint, query);
const error = (endpoint: string, query: Query = {}): [number, string] => {
  const err = apiErrorOf(() => callV3(api, endpoint, query));
  return [err.status, err.message];
};

beforeAll(() => {
  api = buildDevnetApi({ seed: 7, blocks: 60 });
  services = api.view.chain.services;
});

describe('TON DNS', () => {
  it('lists the dns_wallet records of claimed domains by wallet or by domain, in domain order', () => {
    const claimed = services.dnsItems.filter((item) => item.owner !== null && item.wallet !== null);
    const item = claimed[0]!;
    const records = v3('dns/records', { wallet: raw(item.wallet!) }).records as Row[];
    expect(records).toContainEqual({
      nft_item_address: raw(item.account),
      nft_item_owner: raw(item.owner!),
      domain: item.domain,
      dns_next_resolver: null,
      dns_wallet: raw(item.wallet!),
      dns_site_adnl: null,
      dns_storage_bag_id: null,
    });
    expect(records.every((r) => r.dns_wallet === raw(item.wallet!))).toBe(true);
    expect((v3('dns/records', { domain: item.domain.toUpperCase() }).records as Row[]).map((r) => r.domain)).toEqual([item.domain]);
    // A wallet in any form finds the same records.
    const friendly = Address.parseRaw(raw(item.wallet!)).toString({ bounceable: false });
    expect(v3('dns/records', { wallet: friendly }).records).toEqual(records);
    const atAuction = services.dnsItems.find((i) => i.auction !== null)!;
    expect(v3('dns/records', { domain: atAuction.domain }).records).toEqual([]);
    expect(error('dns/records')).toEqual([422, 'wallet or domain is required']);
    expect(error('dns/records', { domain: 'x.ton', limit: 1001 })).toEqual([422, 'limit is not allowed: 1001 > 1000']);
  });

  it('lists a bidder’s auctions, won ones once their end passed, paged by cursor', () => {
    const auctions = services.dnsItems.filter((item) => item.auction !== null);
    expect(auctions.map((a) => a.auction!.endTime < GENESIS_UTIME)).toEqual([true, true, false, false]);
    for (const item of auctions) {
      const rows = v3('dns/activeAuctions', { bidder: raw(item.auction!.bidder) }).auctions as Row[];
      const row = rows.find((r) => r.domain === item.domain)!;
      expect(row).toEqual({
        nft_item_address: raw(item.account),
        domain: item.domain,
        max_bid_address: raw(item.auction!.bidder),
        max_bid_amount: item.auction!.bid.toString(),
        auction_end_time: String(item.auction!.endTime),
        last_fill_up_time: String(item.auction!.lastFillUp),
        finished: item.auction!.endTime < GENESIS_UTIME,
      });
      const state = row.finished ? 'won' : 'bidding';
      expect((v3('dns/activeAuctions', { bidder: raw(item.auction!.bidder), state }).auctions as Row[]).map((r) => r.domain)).toContain(item.domain);
      expect((v3('dns/activeAuctions', { bidder: raw(item.auction!.bidder), state: row.finished ? 'bidding' : 'won' }).auctions as Row[]).map((r) => r.domain)).not.toContain(item.domain);
      const withItem = (v3('dns/activeAuctions', { bidder: raw(item.auction!.bidder), include_nft_items: true }).auctions as Row[]).find((r) => r.domain === item.domain)!;
      expect(withItem.nft_item).toMatchObject({ address: raw(item.account), owner_address: null, content: { domain: item.domain } });
    }
    expect(error('dns/activeAuctions')).toEqual([422, 'missing required parameter: bidder']);
    expect(error('dns/activeAuctions', { bidder: raw(auctions[0]!.auction!.bidder), state: 'open' })).toEqual([422, 'failed to parse state: "open" is not one of all, won, bidding']);
    expect(error('dns/activeAuctions', { bidder: raw(auctions[0]!.auction!.bidder), after: 'x', offset: 1 })).toEqual([422, 'use either after or offset, not both']);
  });

  it('pages auctions with next_cursor until the last page, which has none', () => {
    // The first bidder leads a won auction and a bidding one.
    const bidder = services.dnsItems.find((item) => item.auction !== null)!.auction!.bidder;
    const all = v3('dns/activeAuctions', { bidder: raw(bidder) }).auctions as Row[];
    expect(all.map((r) => r.finished)).toEqual([true, false]);
    const seen: string[] = [];
    let page = v3('dns/activeAuctions', { bidder: raw(bidder), limit: 1 });
    for (;;) {
      seen.push(...(page.auctions as Row[]).map((r) => r.domain as string));
      if (page.next_cursor === undefined) break;
      page = v3('dns/activeAuctions', { bidder: raw(bidder), limit: 1, after: page.next_cursor as string });
    }
    expect(seen).toEqual(all.map((r) => r.domain));
    expect(error('dns/activeAuctions', { bidder: raw(bidder), after: 'bm9wZQ' })).toEqual([422, 'failed to parse after: "bm9wZQ" is not a cursor of this list']);
  });
});

describe('NFT collections and sales', () => {
  it('lists both collections, the DNS one with no item count', () => {
    const collections = v3('nft/collections').nft_collections as Row[];
    expect(collections.map((c) => c.address).sort()).toEqual([raw(api.view.chain.population.collection), raw(services.dnsCollection)].sort());
    expect(collections.find((c) => c.address === raw(services.dnsCollection))!.next_item_index).toBe('-1');
    expect(v3('nft/collections', { collection_address: raw(services.dnsCollection) }).nft_collections).toHaveLength(1);
    expect(v3('nft/collections', { owner_address: raw(services.multisig.signers[0]!) }).nft_collections).toEqual([]);
  });

  it('describes each sale: the DNS item it holds for its seller, price and fees', () => {
    const sale = services.sales[0]!;
    const [row] = v3('nft/sales', { address: raw(sale.account) }).nft_sales as Row[];
    expect(row).toMatchObject({
      address: raw(sale.account),
      type: 'getgems_sale',
      nft_address: raw(sale.item.account),
      nft_owner_address: raw(sale.seller),
      marketplace_address: raw(sale.marketplace),
      created_at: sale.createdAt,
      details: { full_price: sale.price.toString(), marketplace_fee: ((sale.price * 50n) / 1000n).toString() },
      nft_item: { address: raw(sale.item.account), owner_address: raw(sale.account), on_sale: true, sale_contract_address: raw(sale.account), real_owner: raw(sale.seller) },
    });
    expect(v3('nft/sales', { address: [raw(services.vesting.account)] }).nft_sales).toEqual([]);
    expect(error('nft/sales')).toEqual([422, 'missing required parameter: address']);
  });
});

describe('multisig', () => {
  it('finds the multisig by a signer or its address, with orders unless include_orders=false', () => {
    const multisig = services.multisig;
    const [wallet] = v3('multisig/wallets', { wallet_address: raw(multisig.signers[2]!) }).multisigs as Row[];
    expect(wallet).toMatchObject({ address: raw(multisig.account), threshold: 3, next_order_seqno: '3', signers: multisig.signers.map(raw), proposers: multisig.proposers.map(raw) });
    expect((wallet!.orders as Row[]).map((o) => o.order_seqno)).toEqual(['0', '1', '2']);
    expect(v3('multisig/wallets', { address: raw(multisig.account), include_orders: false }).multisigs[0].orders).toBeUndefined();
    expect(v3('multisig/wallets', { wallet_address: raw(services.vesting.account) }).multisigs).toEqual([]);
    expect(error('multisig/wallets')).toEqual([422, 'address or wallet_address is required']);
    expect(error('multisig/wallets', { address: raw(multisig.account), limit: 1025 })).toEqual([422, 'limit is not allowed: 1025 > 1024']);
  });

  it('describes orders: approvals, execution, and with parse_actions the transfer each sends', () => {
    const multisig = services.multisig;
    const orders = v3('multisig/orders', { multisig_address: raw(multisig.account), parse_actions: true, sort: 'asc' }).orders as Row[];
    expect(orders).toHaveLength(3);
    for (const row of orders) {
      const order = multisig.orders.find((o) => raw(o.account) === row.address)!;
      // Its genesis approvals, or those after its newest change (all of this short chain is indexed).
      const changes = api.view.chain.orderChanges.filter((change) => change.order === order.seqno);
      const approvals = (changes[changes.length - 1] ?? order).approvals.filter(Boolean).length;
      expect(row.approvals_num).toBe(approvals);
      expect(row.sent_for_execution).toBe(approvals >= 3);
      expect(row.actions).toEqual([{ destination: raw(order.actions[0]!.destination), value: order.actions[0]!.value.toString(), send_mode: 3, parsed: true, parsed_body_type: 'text_comment', parsed_body: { comment: order.actions[0]!.comment }, body_raw: null, error: null }]);
      // The order BoC holds the same transfer.
      const action = Cell.fromBase64(row.order_boc as string).refs[0]!.beginParse();
      expect(action.loadUint(32)).toBe(0xf1381e5b);
    }
    expect(orders.map((o) => o.address)).toEqual([...orders.map((o) => o.address)].sort());
    expect(v3('multisig/orders', { address: orders[0]!.address as string }).orders[0].actions).toBeUndefined();
  });
});

describe('nominator pool', () => {
  it('describes the pool and each nominator’s position; unknown pools are 404', () => {
    const pool = services.pool;
    const info = v3('staking/nominatorPools/pool', { pool: raw(pool.account) });
    // The genesis books with the indexed events of the pool's traffic applied (service-traffic.test.ts checks the events).
    const books = new Map(pool.nominators.map((n) => [raw(n.wallet), { balance: n.balance.toString(), pending_balance: n.pending.toString() }]));
    for (const e of (v3('staking/nominatorPools/nominatorEvents', { pool: raw(pool.account), limit: 1000 }).events as Row[]).reverse()) {
      books.set(e.nominator_address, { balance: e.balance_after, pending_balance: e.pending_balance_after });
    }
    const held = [...books].filter(([, b]) => b.balance !== '0' || b.pending_balance !== '0');
    // By block 60 the pool has staked with the elector (state 1: stake sent) and not yet recovered it.
    const [staked] = (v3('validators/events', { stake_holder_address: raw(pool.account) }).events as Row[]).filter((e) => e.type === 'stake_accepted');
    expect(info).toMatchObject({ validator_address: raw(pool.validator), nominators_count: held.length, validator_reward_share: 4000, state: 1, stake_amount_sent: staked!.amount });
    expect(info.active_nominators).toEqual(held.map(([address, b]) => ({ address, ...b })));
    const [address, position] = held[1]!;
    expect(v3('staking/nominatorPools/nominator', { nominator: address }).nominator_pools).toContainEqual({ pool_address: raw(pool.account), ...position });
    expect(error('staking/nominatorPools/pool', { pool: raw(services.vesting.account) })).toEqual([404, 'nominator pool not found']);
    expect(error('staking/nominatorPools/pool')).toEqual([422, 'missing required parameter: pool']);
    expect(error('staking/nominatorPools/nominatorRewards', { pool: raw(pool.account) })).toEqual([422, 'missing required parameter: nominator']);
    expect(error('staking/nominatorPools/validatorEvents')).toEqual([422, 'validator or pool is required']);
    expect(error('staking/nominatorPools/validatorEvents', { pool: raw(pool.account), type: 'bonus' })).toEqual([422, 'failed to parse type: "bonus" is not one of reward, penalty, deposit, withdrawal']);
  });

  it('echoes the utime window of its event lists', () => {
    const pool = raw(services.pool.account);
    expect(v3('staking/nominatorPools/nominatorEvents', { pool, start_utime: 5, end_utime: 9 })).toMatchObject({ events: [], start_utime: 5, end_utime: 9 });
    expect(v3('staking/nominatorPools/validatorRewards', { pool, validator: raw(services.pool.validator) })).toMatchObject({ rewards: [], total_on_page: '0', start_utime: 0, end_utime: api.view.chain.utimes.at(-1) });
  });
});

describe('vesting', () => {
  it('finds the vesting wallet by owner, by whitelisted address only with check_whitelist', () => {
    const vesting = services.vesting;
    const expected = {
      address: raw(vesting.account),
      owner_address: raw(vesting.owner),
      sender_address: raw(vesting.sender),
      start_time: vesting.startTime,
      total_amount: vesting.totalAmount.toString(),
      total_duration: vesting.totalDuration,
      unlock_period: vesting.unlockPeriod,
      cliff_duration: vesting.cliffDuration,
      whitelist: vesting.whitelist.map(raw),
    };
    expect(v3('vesting', { wallet_address: raw(vesting.owner) }).vesting_contracts).toEqual([expected]);
    expect(v3('vesting', { contract_address: raw(vesting.account) }).vesting_contracts).toEqual([expected]);
    expect(v3('vesting', { wallet_address: raw(vesting.whitelist[0]!) }).vesting_contracts).toEqual([]);
    expect(v3('vesting', { wallet_address: raw(vesting.whitelist[0]!), check_whitelist: true }).vesting_contracts).toEqual([expected]);
    expect(error('vesting')).toEqual([422, 'contract_address or wallet_address is required']);
  });
});
