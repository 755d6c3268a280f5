/**
 * Devnet v3 responses validate against the official OpenAPI spec
 * (test/fixtures/specs/toncenter-v3.openapi.docs-ton-org.yaml), read through test/support/openapi.ts.
 *
 * Accepted deviations of the real service from the published spec (docs/design.md §6), patched
 * into a COPY of the schema and nothing else: the v3 errata P1–P4 of test/support/spec-errata.ts.
 * Beyond the spec, the tests also require that no object carries a property the spec does not name
 * (the spec's objects are open; the devnet must not invent fields).
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Address } from '@ton/core';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { FIRST_MC_SEQNO } from '../../src/devnet/chain/constants.js';
import { TRUTH_DATASETS, type TruthDataset } from '../../src/devnet/truth.js';
import { DevnetClient, type Query } from '../support/http.js';
import { specResponses } from '../support/openapi.js';
import { errataOf, SPEC_ERRATA } from '../support/spec-errata.js';

const KEY = 'K';
const spec = specResponses();
const closedSpec = specResponses({ closed: true });
const publishedSpec = specResponses({ patched: false });

function example(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`../fixtures/examples/${name}`, import.meta.url), 'utf8')) as unknown;
}

let devnet: Devnet;
let client: DevnetClient;

beforeAll(async () => {
  devnet = await startDevnet({ blocks: 300, keys: new Map([[KEY, 'mainnet']]), keyRps: 1000 });
  client = new DevnetClient(devnet.url, KEY);
});

afterAll(async () => {
  await devnet?.close();
});

interface Case {
  readonly path: string;
  readonly query: () => Query;
  /** Where the items are (undefined: the body is a bare array). null: a map keyed by address. */
  readonly items: string | null | undefined;
}

/** Addresses of one account of each kind, in raw form, plus one wallet in user-friendly form. */
function sampleAddresses(): string[] {
  const population = devnet.generator.chain.population;
  const pick = (kind: string): string => population.accounts.find((a) => a.kind === kind && a.status === 'active')!.raw;
  const wallet = population.accountAt(population.wallets.find((w) => population.accountAt(w).status === 'active')!);
  const friendly = new Address(wallet.workchain, wallet.id).toString({ urlSafe: true, bounceable: false });
  return [pick('wallet'), pick('jetton_master'), pick('jetton_wallet'), pick('nft_item'), pick('nft_collection'), pick('elector'), friendly];
}

const CASES: readonly Case[] = [
  { path: 'masterchainInfo', query: () => ({}), items: 'last' },
  { path: 'blocks', query: () => ({ limit: 30, sort: 'desc' }), items: 'blocks' },
  { path: 'transactions', query: () => ({ limit: 200, sort: 'desc' }), items: 'transactions' },
  { path: 'transactionsByMasterchainBlock', query: () => ({ seqno: FIRST_MC_SEQNO + 150, limit: 1000 }), items: 'transactions' },
  { path: 'actions', query: () => ({ limit: 200, include_accounts: true, sort: 'desc' }), items: 'actions' },
  { path: 'traces', query: () => ({ limit: 30, include_actions: true }), items: 'traces' },
  { path: 'messages', query: () => ({ limit: 200 }), items: 'messages' },
  { path: 'jetton/transfers', query: () => ({ limit: 100, sort: 'desc' }), items: 'jetton_transfers' },
  { path: 'jetton/burns', query: () => ({ limit: 100, sort: 'desc' }), items: 'jetton_burns' },
  { path: 'jetton/masters', query: () => ({ limit: 10 }), items: 'jetton_masters' },
  { path: 'jetton/wallets', query: () => ({ limit: 100 }), items: 'jetton_wallets' },
  { path: 'nft/transfers', query: () => ({ limit: 100, sort: 'desc' }), items: 'nft_transfers' },
  { path: 'nft/items', query: () => ({ limit: 100 }), items: 'nft_items' },
  { path: 'validators/events', query: () => ({ limit: 100 }), items: 'events' },
  { path: 'validators/elections', query: () => ({ limit: 10, return_participants: true }), items: 'elections' },
  { path: 'validators/cycles', query: () => ({ limit: 10, return_validators: true }), items: 'cycles' },
  { path: 'addressBook', query: () => ({ address: sampleAddresses() }), items: null },
  { path: 'metadata', query: () => ({ address: sampleAddresses() }), items: null },
  { path: 'walletStates', query: () => ({ address: sampleAddresses() }), items: 'wallets' },
  { path: 'accountStates', query: () => ({ address: sampleAddresses() }), items: 'accounts' },
  { path: 'topAccountsByBalance', query: () => ({ limit: 20 }), items: undefined },
];

describe('v3 responses against the official OpenAPI spec', () => {
  it('accepts exactly the four documented deviations', () => {
    expect(errataOf('v3')).toEqual([
      'P1: every object property is nullable',
      'P2: FinalityState is a string (pending|confirmed|finalized), not an integer',
      'P3: Message.opcode is a hex string 0x########, not an integer',
      'P4: runGetMethod answers {gas_used, exit_code, stack}, not the request schema',
    ]);
    const runResult = { gas_used: 3186, exit_code: 0, stack: [{ type: 'num', value: '0x1' }] };
    expect(specResponses({ patched: false, closed: true }).errors('runGetMethod', runResult)).not.toEqual([]); // P4
    expect(closedSpec.errors('runGetMethod', runResult)).toEqual([]);
    expect(closedSpec.errors('runGetMethod', { ...runResult, exit_code: '0' })).not.toEqual([]);
    // The patches make the copy accept what the service sends, and still reject what it never sends.
    expect(spec.errors('transactions', { transactions: [{ finality: 'finalized', in_msg: null }] })).toEqual([]);
    expect(spec.errors('transactions', { transactions: [{ finality: 'final' }] })).not.toEqual([]);
    expect(spec.errors('messages', { messages: [{ opcode: '0x0f8a7ea5' }] })).toEqual([]);
    expect(spec.errors('messages', { messages: [{ opcode: '0xf8a7ea5' }] })).not.toEqual([]);
    expect(spec.errors('messages', { messages: [{ created_lt: 1 }] })).not.toEqual([]);
    expect(closedSpec.errors('transactions', { transactions: [{ account_name: 'x' }] })).not.toEqual([]);
  });

  it('lists the errata of both files once, each example its evidence names in the fixtures', () => {
    expect(SPEC_ERRATA.map((e) => e.id)).toEqual(['P1', 'P2', 'P3', 'P4', 'E1', 'E2', 'E3', 'E4']);
    const examples = SPEC_ERRATA.flatMap((e) => e.evidence.match(/[\w.-]+\.json/g) ?? []);
    expect(examples.length).toBeGreaterThan(3);
    for (const name of examples) expect(existsSync(new URL(`../fixtures/examples/${name}`, import.meta.url)), name).toBe(true);
  });

  it('needs each deviation for real mainnet responses, and accepts them once patched', () => {
    const transactions = { transactions: example('v3-transactions.mainnet.2026-07.json') };
    const published = publishedSpec.errors('transactions', transactions);
    expect(published.some((e) => /^\/transactions\/0\/finality must be integer/.test(e))).toBe(true); // P2
    const traces = example('v3-traces.mainnet.2025-09.docs-pr493.json');
    expect(publishedSpec.errors('traces', traces).some((e) => /\/opcode must be integer: got "0x[0-9a-f]{8}"$/.test(e))).toBe(true); // P3
    expect(published.some((e) => / must be string: got null$/.test(e))).toBe(true); // P1
    expect(spec.errors('transactions', transactions)).toEqual([]);
    expect(closedSpec.errors('transactions', transactions)).toEqual([]);
    expect(closedSpec.errors('actions', { actions: example('v3-actions.mainnet.2026-07.json') })).toEqual([]);
    expect(closedSpec.errors('jetton/transfers', example('v3-jetton-transfers.mainnet.2026-07.json'))).toEqual([]);
    expect(closedSpec.errors('traces', traces)).toEqual([]);
    expect(closedSpec.errors('masterchainInfo', example('v3-masterchainInfo.testnet.2024-07.cordialsys.json'))).toEqual([]);
  });

  it('finds a wrong type deep inside a real devnet response', async () => {
    const reply = await client.v3<{ transactions: Record<string, unknown>[] }>('transactions', { limit: 5, sort: 'asc' });
    expect(reply.status).toBe(200);
    expect(spec.errors('transactions', reply.body)).toEqual([]);
    const broken = structuredClone(reply.body);
    const tx = broken.transactions[0]!;
    tx.now = String(tx.now);
    (tx.block_ref as Record<string, unknown>).seqno = 'x';
    (tx.description as { compute_ph: Record<string, unknown> }).compute_ph.skipped = 'no';
    const typeErrors = spec.errors('transactions', broken).filter((e) => !e.includes('must match a schema in anyOf') && !e.includes('must be null'));
    expect(typeErrors.sort()).toEqual([
      '/transactions/0/block_ref/seqno must be integer,null: got "x"',
      '/transactions/0/description/compute_ph/skipped must be boolean,null: got "no"',
      '/transactions/0/now must be integer,null: got "' + String(reply.body.transactions[0]!.now) + '"',
    ]);
  });

  for (const c of CASES) {
    it(`GET /api/v3/${c.path} matches its 200 schema`, async () => {
      const reply = await client.v3(c.path, c.query());
      expect(reply.status, reply.text.slice(0, 200)).toBe(200);
      const body = reply.body as Record<string, unknown>;
      // Never validate an empty answer: the case must carry items.
      const items = c.items === undefined ? body : c.items === null ? Object.values(body) : body[c.items];
      expect(Array.isArray(items) ? items.length : items === undefined || items === null ? 0 : 1).toBeGreaterThan(0);
      expect(spec.errors(c.path, body)).toEqual([]);
      expect(closedSpec.errors(c.path, body)).toEqual([]);
    });
  }

  // Every shape the chain produces (aborted, bounced, tick-tock, external, …) over the whole chain.
  const TRUTH_PATHS: Readonly<Record<TruthDataset, readonly [string, string]>> = {
    transactions: ['transactions', 'transactions'],
    actions: ['actions', 'actions'],
    jetton_transfers: ['jetton/transfers', 'jetton_transfers'],
    jetton_burns: ['jetton/burns', 'jetton_burns'],
    nft_transfers: ['nft/transfers', 'nft_transfers'],
    validator_events: ['validators/events', 'events'],
    blocks: ['blocks', 'blocks'],
    validator_cycles: ['validators/cycles', 'cycles'],
    validator_elections: ['validators/elections', 'elections'],
    traces: ['traces', 'traces'],
    jetton_masters: ['jetton/masters', 'jetton_masters'],
    jetton_wallets: ['jetton/wallets', 'jetton_wallets'],
    nft_items: ['nft/items', 'nft_items'],
    nft_collections: ['nft/collections', 'nft_collections'],
  };
  /** A state dataset's item carries its entry of the response's `metadata`: back where the response has it. */
  const asResponse = (key: string, rows: readonly Record<string, unknown>[]): Record<string, unknown> => {
    const metadata = Object.fromEntries(rows.flatMap((row) => (row.metadata === undefined ? [] : [[row.address, row.metadata]])));
    const items = rows.map(({ metadata: _metadata, ...item }) => item);
    return Object.keys(metadata).length === 0 ? { [key]: items } : { [key]: items, metadata };
  };
  for (const dataset of TRUTH_DATASETS) {
    it(`every ${dataset} truth row matches the spec`, () => {
      const [path, key] = TRUTH_PATHS[dataset];
      const rows = devnet.truth(dataset);
      expect(rows.length).toBeGreaterThan(0);
      expect(spec.errors(path, asResponse(key, rows))).toEqual([]);
      expect(closedSpec.errors(path, asResponse(key, rows))).toEqual([]);
    });
  }
});
