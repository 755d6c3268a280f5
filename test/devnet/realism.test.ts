/**
 * The devnet's chain looks like mainnet where an ETL can tell the difference (docs/design.md §6):
 * ties on lt across shards, per-account rising lt, traces over several blocks, 2^100+ jetton
 * amounts, real BoC bodies, valid user-friendly addresses, failures and bounces, elector events,
 * mainnet-shaped numbers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Address, Cell } from '@ton/core';
import { readFileSync } from 'node:fs';
import { buildDevnetApi } from '../../src/devnet/index.js';
import { normalizedExternalHash } from '../../src/devnet/render/normalized-hash.js';
import { truthRows } from '../../src/devnet/truth.js';
import { TOKENS } from '../../src/devnet/chain/population.js';
import { BASECHAIN_SHARDS, CONFIG_RAW, ELECTOR_RAW, LT_PER_BLOCK, MASTERCHAIN_SHARD } from '../../src/devnet/chain/constants.js';
import { callV3 } from '../support/devnet-routes.js';

/** Wire JSON under test: fields are read by name, so `any` keeps the assertions short. */
type Row = Record<string, any>;

const api = buildDevnetApi({ seed: 7, blocks: 600 });
const chain = api.view.chain;
let txs: Row[];
let blocks: Row[];
let messages: Row[];

const HASH = /^[A-Za-z0-9+/]{43}=$/;
const DIGITS = /^\d+$/;

beforeAll(() => {
  txs = JSON.parse(JSON.stringify(truthRows(api, 'transactions'))) as Row[];
  blocks = JSON.parse(JSON.stringify(truthRows(api, 'blocks'))) as Row[];
  messages = txs.flatMap((tx) => [...(tx.in_msg === null ? [] : [tx.in_msg]), ...tx.out_msgs]);
});

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group === undefined) groups.set(key(item), [item]);
    else group.push(item);
  }
  return groups;
}

describe('devnet realism (seed 7, 600 masterchain blocks)', () => {
  it('has a sizeable chain', () => {
    expect(chain.steps).toBe(600);
    expect(txs.length).toBeGreaterThan(10_000);
    expect(blocks.length).toBe(600 * 3);
  });

  it('shares lt values across accounts in different shards and between masterchain and basechain', () => {
    const byLt = groupBy(txs, (tx) => tx.lt as string);
    const shardsAt = (rows: Row[]): Set<string> => new Set(rows.map((tx) => `${tx.block_ref.workchain}:${tx.block_ref.shard}`));
    const acrossBasechainShards = [...byLt.values()].filter((rows) => {
      const shards = shardsAt(rows);
      return BASECHAIN_SHARDS.every((shard) => shards.has(`0:${shard}`)) && new Set(rows.map((tx) => tx.account)).size >= 2;
    });
    const masterAndBase = [...byLt.values()].filter((rows) => {
      const shards = shardsAt(rows);
      return shards.has(`-1:${MASTERCHAIN_SHARD}`) && [...shards].some((s) => s.startsWith('0:'));
    });
    expect(acrossBasechainShards.length).toBeGreaterThan(100);
    expect(masterAndBase.length).toBeGreaterThan(100);
    // (account, lt) and hash stay unique.
    expect(new Set(txs.map((tx) => `${tx.account}/${tx.lt}`)).size).toBe(txs.length);
    expect(new Set(txs.map((tx) => tx.hash)).size).toBe(txs.length);
  });

  it('raises lt strictly per account and chains prev_trans_lt/prev_trans_hash', () => {
    let accounts = 0;
    chain.accountTxs.forEach((list) => {
      accounts += 1;
      for (let i = 1; i < list.length; i++) expect(chain.tx(list[i]!).lt).toBeGreaterThan(chain.tx(list[i - 1]!).lt);
    });
    expect(accounts).toBeGreaterThan(500);
    for (const rows of groupBy(txs, (tx) => tx.account as string).values()) {
      expect(rows[0]!.prev_trans_lt).toBe('0');
      for (let i = 1; i < rows.length; i++) {
        expect(BigInt(rows[i]!.lt)).toBeGreaterThan(BigInt(rows[i - 1]!.lt));
        expect(rows[i]!.prev_trans_lt).toBe(rows[i - 1]!.lt);
        expect(rows[i]!.prev_trans_hash).toBe(rows[i - 1]!.hash);
      }
    }
  });

  it('orders transactions by (lt, account)', () => {
    for (let i = 1; i < txs.length; i++) {
      const a = txs[i - 1]!;
      const b = txs[i]!;
      const order = BigInt(a.lt) < BigInt(b.lt) || (a.lt === b.lt && a.account < b.account);
      expect(order, `${a.lt} ${a.account} then ${b.lt} ${b.account}`).toBe(true);
    }
  });

  it('has traces spanning several masterchain blocks, external in → wallet → jetton wallets → notification/excess', () => {
    const traces = groupBy(txs, (tx) => tx.trace_id as string);
    const spans = [...traces.values()].map((rows) => new Set(rows.map((tx) => tx.mc_block_seqno)).size);
    expect(spans.filter((n) => n >= 3).length).toBeGreaterThan(100);
    expect(Math.max(...spans)).toBeGreaterThanOrEqual(4);
    const jettonTrace = [...traces.values()].find(
      (rows) =>
        rows.length >= 4 &&
        rows[0]!.in_msg.source === null &&
        rows.some((tx) => tx.in_msg?.opcode === '0x0f8a7ea5') &&
        rows.some((tx) => tx.in_msg?.opcode === '0x178d4519') &&
        rows.some((tx) => tx.in_msg?.opcode === '0x7362d09c') &&
        rows.some((tx) => tx.in_msg?.opcode === '0xd53276db'),
    );
    expect(jettonTrace).toBeDefined();
    expect(new Set(jettonTrace!.map((tx) => tx.mc_block_seqno)).size).toBeGreaterThanOrEqual(3);
    // The trace id is the hash of the trace's first transaction.
    expect(jettonTrace![0]!.trace_id).toBe(jettonTrace![0]!.hash);
    expect(jettonTrace![0]!.trace_external_hash).toBe(jettonTrace![0]!.in_msg.hash);
  });

  it('carries GIGA jetton amounts above 2^100, digit-exact from the body BoC to the JSON string', () => {
    const giga = chain.population.accountAt(chain.population.masters[TOKENS.findIndex((t) => t.symbol === 'GIGA')]!).raw;
    const transfers = truthRows(api, 'jetton_transfers').filter((r) => r.jetton_master === giga);
    const huge = transfers.filter((r) => BigInt(r.amount as string) > 2n ** 100n);
    expect(huge.length).toBeGreaterThan(10);
    const byHash = new Map(txs.map((tx) => [tx.hash as string, tx]));
    for (const r of huge) {
      expect(r.amount).toMatch(DIGITS);
      const tx = byHash.get(r.transaction_hash as string)!;
      expect(tx.in_msg.opcode).toBe('0x0f8a7ea5');
      const body = Cell.fromBase64(tx.in_msg.message_content.body as string).beginParse();
      expect(body.loadUint(32)).toBe(0x0f8a7ea5);
      expect(body.loadUintBig(64).toString()).toBe(r.query_id);
      expect(body.loadCoins().toString()).toBe(r.amount);
    }
  });

  it('sends real BoC bodies whose first 32 bits are the declared opcode', () => {
    let withOpcode = 0;
    let comments = 0;
    const opcodes = new Set<string>();
    for (const msg of messages) {
      const content = msg.message_content;
      const cell = Cell.fromBase64(content.body as string);
      expect(cell.hash().toString('base64')).toBe(content.hash);
      const slice = cell.beginParse();
      if (msg.opcode === null) {
        expect(slice.remainingBits).toBeLessThan(32);
        continue;
      }
      withOpcode += 1;
      opcodes.add(msg.opcode as string);
      expect(msg.opcode).toMatch(/^0x[0-9a-f]{8}$/);
      expect(slice.preloadUint(32)).toBe(Number.parseInt((msg.opcode as string).slice(2), 16));
      if (content.decoded !== null) {
        expect(content.decoded.type).toBe('text_comment');
        expect(msg.opcode).toBe('0x00000000');
        slice.skip(32);
        expect(slice.loadStringTail()).toBe(content.decoded.comment);
        comments += 1;
      }
    }
    expect(withOpcode).toBeGreaterThan(10_000);
    expect(comments).toBeGreaterThan(100);
    for (const op of ['0x0f8a7ea5', '0x178d4519', '0x7362d09c', '0xd53276db', '0x595f07bc', '0x7bdd97de', '0x5fcc3d14', '0x05138d91', '0x4e73744b', '0x47657424', '0xffffffff', '0x00000000']) {
      expect(opcodes, op).toContain(op);
    }
    // Jetton transfer bodies name the TEP-74 op and their comment rides in the forward payload.
    const jettonTransfer = messages.find((m) => m.opcode === '0x0f8a7ea5')!;
    expect(jettonTransfer.decoded_opcode).toBe('jetton_transfer');
  });

  it('decodes jetton transfer forward-payload comments to the transfer record comment', () => {
    const withComment = truthRows(api, 'jetton_transfers').filter((r) => r.decoded_forward_payload !== null);
    expect(withComment.length).toBeGreaterThan(20);
    for (const r of withComment) {
      const slice = Cell.fromBase64(r.forward_payload as string).beginParse();
      expect(slice.loadUint(32)).toBe(0);
      expect(slice.loadStringTail()).toBe((r.decoded_forward_payload as { comment: string }).comment);
    }
  });

  it('gives every address_book entry a user-friendly form that parses back to its raw key', () => {
    const responses = [
      ['transactions', callV3(api, 'transactions', { limit: 1000, sort: 'asc' })],
      ['actions', callV3(api, 'actions', { limit: 1000, sort: 'asc', include_accounts: true })],
      ['traces', callV3(api, 'traces', { limit: 200, sort: 'desc' })],
    ] as const;
    let entries = 0;
    const kinds = new Set<string>();
    for (const [items, response] of responses) {
      const book = response.address_book as Record<string, { user_friendly: string; interfaces: string[] }>;
      for (const [raw, entry] of Object.entries(book)) {
        entries += 1;
        expect(raw).toMatch(/^(-1|0):[0-9A-F]{64}$/);
        const parsed = Address.parseFriendly(entry.user_friendly);
        expect(Address.isFriendly(entry.user_friendly)).toBe(true);
        expect(entry.user_friendly).toMatch(/^[A-Za-z0-9_-]{48}$/);
        expect(`${parsed.address.workChain}:${parsed.address.hash.toString('hex').toUpperCase()}`).toBe(raw);
        expect(parsed.isTestOnly).toBe(false);
        const wallet = entry.interfaces.some((i) => i.startsWith('wallet_'));
        expect(parsed.isBounceable).toBe(!wallet);
        kinds.add(wallet ? 'wallet' : 'contract');
      }
      // Every account the items mention is in the address book.
      const missing = new Set<string>();
      JSON.stringify(response[items], (_key, value: unknown) => {
        if (typeof value === 'string' && /^(-1|0):[0-9A-F]{64}$/.test(value) && !(value in book)) missing.add(value);
        return value;
      });
      expect([...missing]).toEqual([]);
    }
    expect(entries).toBeGreaterThan(500);
    expect([...kinds].sort()).toEqual(['contract', 'wallet']);
  });

  it('has aborted transactions and bounced messages', () => {
    const aborted = txs.filter((tx) => tx.description.aborted === true);
    expect(aborted.length).toBeGreaterThan(100);
    // Not enough jettons: the wallet code exits 706 and bounces the transfer.
    expect(aborted.some((tx) => tx.description.compute_ph.exit_code === 706 && tx.description.bounce?.type === 'ok')).toBe(true);
    // No code at the destination: compute skipped.
    expect(aborted.some((tx) => tx.description.compute_ph.skipped === true && tx.description.compute_ph.reason === 'no_state')).toBe(true);
    const bounced = messages.filter((m) => m.bounced === true);
    expect(bounced.length).toBeGreaterThan(100);
    const bouncers = txs.filter((tx) => tx.out_msgs.some((m: Row) => m.bounced === true));
    for (const tx of bouncers) {
      const back = tx.out_msgs.find((m: Row) => m.bounced === true)!;
      expect(tx.description.aborted).toBe(true);
      expect(back.opcode).toBe('0xffffffff');
      expect(back.bounce).toBe(false);
      expect(back.destination).toBe(tx.in_msg.source);
      expect(back.source).toBe(tx.account);
      // The bounced body repeats the start of the original body after 0xffffffff.
      const original = Cell.fromBase64(tx.in_msg.message_content.body as string).beginParse();
      const body = Cell.fromBase64(back.message_content.body as string).beginParse();
      body.skip(32);
      const n = Math.min(original.remainingBits, 256);
      expect(body.loadBits(n).equals(original.loadBits(n))).toBe(true);
    }
    // Each bounce is one transaction sending one bounced message back.
    expect(txs.flatMap((tx) => tx.out_msgs).filter((m: Row) => m.bounced === true).length).toBe(bouncers.length);
  });

  it('carries StateInit on every deploy, hash_norm on every external message and gas_credit on their transactions', () => {
    const deploys = txs.filter((tx) => tx.orig_status !== 'active' && tx.end_status === 'active');
    expect(deploys.length).toBeGreaterThan(50);
    const population = chain.population;
    const kinds = new Set<string>();
    for (const tx of deploys) {
      const init = tx.in_msg.init_state as Row;
      expect(init.decoded).toBeNull();
      const cell = Cell.fromBase64(init.body as string);
      expect(cell.hash().toString('base64')).toBe(init.hash);
      // The data is the contract's initial one: a jetton wallet of its owner and master with nothing, a wallet at seqno 0.
      const account = population.accountAt(population.byRaw.get(tx.account)!);
      const data = cell.refs[1]!.beginParse();
      kinds.add(account.kind);
      if (account.kind === 'jetton_wallet') {
        expect(data.loadCoins()).toBe(0n);
        expect(population.byRaw.get(data.loadAddress().toRawString().toUpperCase())).toBe(account.owner);
        expect(population.byRaw.get(data.loadAddress().toRawString().toUpperCase())).toBe(account.jettonMaster);
      } else {
        expect(tx.in_msg.source).toBeNull();
        expect(data.loadUint(32)).toBe(0);
      }
    }
    expect([...kinds].sort()).toEqual(['jetton_wallet', 'wallet']);
    // Only deploys carry one: a jetton wallet's transfers to a deployed wallet as well, a deployed wallet's externals not.
    const carriers = messages.filter((m) => m.init_state !== null);
    expect(carriers.filter((m) => m.decoded_opcode !== 'jetton_internal_transfer' && m.source !== null)).toEqual([]);
    expect(carriers.length).toBeGreaterThan(deploys.length);
    const externals = txs.filter((tx) => tx.in_msg !== null && tx.in_msg.source === null);
    expect(externals.length).toBeGreaterThan(1000);
    for (const tx of externals) {
      expect(tx.description.credit_first).toBe(true);
      expect(tx.description.compute_ph.gas_credit).toBe('10000');
      const body = Cell.fromBase64(tx.in_msg.message_content.body as string);
      expect(tx.in_msg.hash_norm).toBe(normalizedExternalHash(Address.parse(tx.in_msg.destination as string), body));
    }
    expect(new Set(externals.map((tx) => tx.in_msg.hash_norm)).size).toBe(externals.length);
    // An action names its trace's external message by the same hash_norm.
    const normOf = new Map(externals.map((tx) => [tx.in_msg.hash as string, tx.in_msg.hash_norm as string]));
    const actions = truthRows(api, 'actions') as Row[];
    expect(actions.filter((a) => a.trace_external_hash !== undefined && a.trace_external_hash_norm !== normOf.get(a.trace_external_hash))).toEqual([]);
    const internal = messages.filter((m) => m.source !== null);
    expect(internal.filter((m) => 'hash_norm' in m)).toEqual([]);
    expect(txs.filter((tx) => tx.in_msg?.source !== null && tx.description.compute_ph?.gas_credit !== undefined)).toEqual([]);
  });

  it('normalizes external messages as the real service does (a mainnet message and its hash_norm)', () => {
    const trace = JSON.parse(readFileSync(new URL('../fixtures/examples/v3-traces.mainnet.2025-09.docs-pr493.json', import.meta.url), 'utf8')) as Row;
    const msg = trace.traces[0].transactions['Vy11B+AiGGrDBcGx3UiUFUJozUQ3U2yHvaATSrS03og='].in_msg as Row;
    expect(normalizedExternalHash(Address.parse(msg.destination as string), Cell.fromBase64(msg.message_content.body as string))).toBe(msg.hash_norm);
    expect(Cell.fromBase64(msg.init_state.body as string).hash().toString('base64')).toBe(msg.init_state.hash);
  });

  it('has validator events of all three types from the elector', () => {
    const events = truthRows(api, 'validator_events');
    const types = groupBy(events, (e) => e.type as string);
    expect([...types.keys()].sort()).toEqual(['stake_accepted', 'stake_recovered', 'stake_rejected']);
    for (const e of types.get('stake_rejected')!) expect(e.reason).toBe(5);
    for (const e of types.get('stake_accepted')!) expect(e.validator_pubkey).toMatch(/^[0-9A-F]{64}$/);
    for (const e of types.get('stake_recovered')!) expect(BigInt(e.amount as string)).toBeGreaterThan(0n);
    const byHash = new Map(txs.map((tx) => [tx.hash as string, tx]));
    for (const e of events) {
      const tx = byHash.get(e.tx_hash as string)!;
      expect(tx.account).toBe(ELECTOR_RAW);
      expect(tx.lt).toBe(e.tx_lt);
      expect(tx.in_msg.source).toBe(e.stake_holder_address);
    }
  });

  it('aligns block start_lt to 1,000,000 and gives transactions lt = start_lt + a small offset', () => {
    const blockOf = new Map(blocks.map((b) => [`${b.workchain}:${b.shard}:${b.seqno}`, b]));
    for (const b of blocks) {
      expect(BigInt(b.start_lt) % BigInt(LT_PER_BLOCK)).toBe(0n);
      expect(BigInt(b.end_lt)).toBeGreaterThan(BigInt(b.start_lt));
    }
    const offsets = new Set<number>();
    for (const tx of txs) {
      const b = blockOf.get(`${tx.block_ref.workchain}:${tx.block_ref.shard}:${tx.block_ref.seqno}`)!;
      const offset = Number(BigInt(tx.lt) - BigInt(b.start_lt));
      offsets.add(offset);
      expect(offset).toBeGreaterThanOrEqual(1);
      expect(offset).toBeLessThan(100);
      expect(BigInt(tx.lt)).toBeLessThan(BigInt(b.end_lt));
      expect(tx.mc_block_seqno).toBe(b.masterchain_block_ref.seqno);
      expect(tx.now).toBe(Number(b.gen_utime));
    }
    expect(Math.min(...offsets)).toBe(1);
    // tx_count agrees with the transactions the block holds
    const perBlock = groupBy(txs, (tx) => `${tx.block_ref.workchain}:${tx.block_ref.shard}:${tx.block_ref.seqno}`);
    for (const b of blocks) expect(perBlock.get(`${b.workchain}:${b.shard}:${b.seqno}`)?.length ?? 0).toBe(b.tx_count);
  });

  it('keeps the elector at -1:333…3 and the config at -1:555…5, ticking and tocking every masterchain block', () => {
    expect(ELECTOR_RAW).toBe('-1:' + '3'.repeat(64));
    expect(CONFIG_RAW).toBe('-1:' + '5'.repeat(64));
    for (const [raw, isTock] of [[ELECTOR_RAW, false], [CONFIG_RAW, true]] as const) {
      const own = txs.filter((tx) => tx.account === raw);
      const tickTocks = own.filter((tx) => tx.description.type === 'tick_tock');
      expect(tickTocks.length).toBe(600);
      for (const tx of own) expect(tx.block_ref).toEqual({ workchain: -1, shard: MASTERCHAIN_SHARD, seqno: tx.mc_block_seqno });
      for (const tx of tickTocks) {
        expect(tx.description.is_tock).toBe(isTock);
        expect(tx.in_msg).toBeNull();
      }
    }
  });

  it('sends hashes as 44-character standard base64 of 32 bytes', () => {
    const hashes: string[] = [];
    for (const tx of txs) {
      hashes.push(tx.hash, tx.trace_id, tx.account_state_after.hash);
      if (tx.prev_trans_lt !== '0') hashes.push(tx.prev_trans_hash);
    }
    for (const m of messages) hashes.push(m.hash, m.message_content.hash);
    for (const b of blocks) hashes.push(b.root_hash, b.file_hash, b.rand_seed, b.created_by);
    expect(hashes.filter((hash) => !HASH.test(hash) || Buffer.from(hash, 'base64').length !== 32)).toEqual([]);
    expect(hashes.length).toBeGreaterThan(50_000);
  });

  it('sends lts, amounts and fees as JSON strings of digits', () => {
    const strings: unknown[] = [];
    for (const tx of txs) {
      strings.push(tx.lt, tx.prev_trans_lt, tx.total_fees);
      if (tx.account_state_after.balance !== null) strings.push(tx.account_state_after.balance);
    }
    for (const m of messages) {
      if (m.source === null) continue;
      strings.push(m.value, m.fwd_fee, m.created_lt, m.created_at);
    }
    for (const b of blocks) strings.push(b.start_lt, b.end_lt, b.gen_utime);
    for (const r of truthRows(api, 'jetton_transfers')) strings.push(r.amount, r.transaction_lt, r.query_id, r.forward_ton_amount);
    for (const r of truthRows(api, 'jetton_burns')) strings.push(r.amount, r.transaction_lt);
    for (const r of truthRows(api, 'actions')) strings.push(r.start_lt, r.end_lt, r.trace_end_lt);
    for (const r of truthRows(api, 'validator_events')) strings.push(r.tx_lt, r.amount);
    expect(strings.filter((value) => typeof value !== 'string' || !DIGITS.test(value))).toEqual([]);
    expect(strings.length).toBeGreaterThan(50_000);
    for (const tx of txs.slice(0, 100)) {
      expect(typeof tx.now).toBe('number');
      expect(typeof tx.mc_block_seqno).toBe('number');
    }
  });
});
