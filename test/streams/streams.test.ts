import { readFileSync } from 'node:fs';
import { beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import type { StreamDefinition } from '../../src/core/stream.js';
import { actionAccountsTable, actionsStream, actionsTable } from '../../src/streams/actions.js';
import { STREAM_NAMES, allStreams, streamByName, dataTables } from '../../src/streams/index.js';
import { jettonTransfersStream, jettonTransfersTable } from '../../src/streams/jetton-transfers.js';
import { messagesTable, transactionsStream, transactionsTable } from '../../src/streams/transactions.js';
import { validatorEventsStream, validatorEventsTable } from '../../src/streams/validator-events.js';
import { rowProblems, runStream } from './rows.js';

const EXAMPLES = new URL('../fixtures/examples/', import.meta.url);
const example = <T>(file: string): T => JSON.parse(readFileSync(new URL(file, EXAMPLES), 'utf8')) as T;

type Json = Record<string, unknown>;
const realTransaction = example<Json[]>('v3-transactions.mainnet.2026-07.json')[0]!;
const realAction = example<Json[]>('v3-actions.mainnet.2026-07.json')[0]!;
const realTransfer = example<{ jetton_transfers: Json[] }>('v3-jetton-transfers.mainnet.2026-07.json').jetton_transfers[0]!;
const realEvent: Json = {
  tx_hash: 'YIzpWXLi1It4Z8f7QZilBQ51xXYgauXzLYkdkkUm4lo=',
  tx_lt: '60000008000002',
  utime: 1767225633,
  type: 'stake_accepted',
  stake_holder_address: '-1:5F162BE1BA73FA3DC659695515B85F361FE4BC2C1CC08C4F96B131E709386610',
  validator_pubkey: '0F78083907D18D6DAD8091516038880375B9A9E20A4162083C584A3F8C0D75B9',
  election_id: 1767226200,
  query_id: '1767225633',
  amount: '300000000000000',
};

/** The one row a single item gives in `table`, after checking the item parsed and the row is valid. */
function onlyRow(stream: StreamDefinition, raw: unknown, table: { readonly name: string } = stream.tables[0]!): Record<string, unknown> {
  const output = runStream(stream, [raw]);
  expect(output.rejects).toEqual([]);
  for (const t of stream.tables) expect(rowProblems(t, output.rows.get(t.name)!)).toEqual([]);
  const rows = output.rows.get(table.name)!;
  expect(rows).toHaveLength(1);
  return rows[0]! as Record<string, unknown>;
}

function rejectReason(stream: StreamDefinition, raw: unknown): string {
  const output = runStream(stream, [raw]);
  expect(output.items).toEqual([]);
  expect(output.rejects).toHaveLength(1);
  return output.rejects[0]!.reason;
}

describe('exact amounts', () => {
  const max120 = 2n ** 120n - 1n;

  it('keeps a jetton amount of 2^120-1 exact from item to row', () => {
    const row = onlyRow(jettonTransfersStream, { ...realTransfer, amount: max120.toString() });
    expect(row.amount).toBe(max120);
  });

  it('keeps 2^120-1 exact in a lifted action amount and a message value', () => {
    const details = { ...(realAction.details as Json), value: max120.toString() };
    expect(onlyRow(actionsStream, { ...realAction, details }).amount).toBe(max120);
    const inMsg = { ...(realTransaction.in_msg as Json), value: max120.toString() };
    expect(onlyRow(transactionsStream, { ...realTransaction, in_msg: inMsg }, messagesTable).value).toBe(max120);
  });

  it('rejects an amount DECIMAL(38,0) cannot hold instead of failing the commit', () => {
    expect(rejectReason(jettonTransfersStream, { ...realTransfer, amount: (10n ** 38n).toString() })).toMatch(/^amount: expected a bigint with at most 38 digits/);
  });

  it('keeps logical times and query ids as exact u64', () => {
    const row = onlyRow(jettonTransfersStream, { ...realTransfer, query_id: '18446744073709551615', transaction_lt: '9007199254740993' });
    expect(row.query_id).toBe(2n ** 64n - 1n);
    expect(row.tx_lt).toBe(9007199254740993n);
  });
});

describe('item validation', () => {
  it('rejects an lt that is not a decimal string', () => {
    expect(rejectReason(transactionsStream, { ...realTransaction, lt: 'abc' })).toContain('lt: expected an unsigned 64-bit integer');
    expect(rejectReason(transactionsStream, { ...realTransaction, lt: 93307000000009 })).toContain('lt: expected');
  });

  it('rejects an item without its hash', () => {
    const { hash: _, ...withoutHash } = realTransaction;
    expect(rejectReason(transactionsStream, withoutHash)).toMatch(/^hash: /);
    const { transaction_hash: __, ...transfer } = realTransfer;
    expect(rejectReason(jettonTransfersStream, transfer)).toMatch(/^transaction_hash: /);
  });

  it('rejects a hash that is not 32 bytes of base64 and an address that is not one', () => {
    expect(rejectReason(transactionsStream, { ...realTransaction, hash: 'abc' })).toMatch(/^hash: expected a 32-byte hash/);
    expect(rejectReason(jettonTransfersStream, { ...realTransfer, source: 'nowhere' })).toMatch(/^source: expected an address/);
  });

  it('tolerates unknown fields', () => {
    expect(onlyRow(transactionsStream, { ...realTransaction, brand_new_field: { x: 1 } }).tx_hash).toBe(realTransaction.hash);
  });
});

describe('transactions', () => {
  it('keeps an unknown finality as text (unknown_3), and maps integer codes', () => {
    expect(onlyRow(transactionsStream, { ...realTransaction, finality: 'unknown_3' }).finality).toBe('unknown_3');
    expect(onlyRow(transactionsStream, { ...realTransaction, finality: 2 }).finality).toBe('finalized');
    expect(onlyRow(transactionsStream, { ...realTransaction, finality: 7 }).finality).toBe('unknown_7');
    const { finality: _, ...withoutFinality } = realTransaction;
    expect(onlyRow(transactionsStream, withoutFinality).finality).toBeNull();
  });

  it('decodes a text comment from a body BoC when the API sent no decoded form', () => {
    const body = beginCell().storeUint(0, 32).storeStringTail('hi').endCell().toBoc().toString('base64');
    const outMsg = {
      ...(realTransaction.in_msg as Json),
      opcode: '0x00000000',
      message_content: { hash: 'lqKW0iTyhcZ77pPDD4owkVfw2qNdxbh+QQt4YwoJz8c=', body, decoded: null },
    };
    const { rows } = runStream(transactionsStream, [{ ...realTransaction, out_msgs: [outMsg] }]);
    const out = rows.get(messagesTable.name)!.find((row) => row.direction === 'out')!;
    expect(out.comment).toBe('hi');
    expect(out.opcode).toBe(0n);
    expect(rows.get(transactionsTable.name)![0]!.out_msg_count).toBe(1);
  });

  it('prefers the decoded comment, and decodes nothing from a body whose opcode is not 0', () => {
    const body = beginCell().storeUint(0, 32).storeStringTail('from boc').endCell().toBoc().toString('base64');
    const content = { hash: null, body };
    const message = (extra: Json): Json => ({ ...(realTransaction.in_msg as Json), ...extra });
    const comments = (msg: Json): unknown => onlyRow(transactionsStream, { ...realTransaction, in_msg: msg }, messagesTable).comment;
    expect(comments(message({ opcode: '0x00000000', message_content: { ...content, decoded: { type: 'text_comment', comment: 'api' } } }))).toBe('api');
    expect(comments(message({ opcode: '0x0f8a7ea5', message_content: { ...content, decoded: null } }))).toBeNull();
  });

  it('stores opcodes as unsigned 32-bit values', () => {
    const row = (opcode: unknown): unknown =>
      onlyRow(transactionsStream, { ...realTransaction, in_msg: { ...(realTransaction.in_msg as Json), opcode } }, messagesTable).opcode;
    expect(row('0x0f8a7ea5')).toBe(0x0f8a7ea5n);
    expect(row('0xffffffff')).toBe(4294967295n);
    expect(row(-1)).toBe(4294967295n);
    expect(row(null)).toBeNull();
    expect(rejectReason(transactionsStream, { ...realTransaction, in_msg: { ...(realTransaction.in_msg as Json), opcode: 'jetton' } })).toContain(
      'in_msg.opcode',
    );
  });

  it('reads the 2024 compute phase (type/skip_reason)', () => {
    const description = { ...(realTransaction.description as Json), compute_ph: { type: 'skipped', skip_reason: 'no_state' } };
    const row = onlyRow(transactionsStream, { ...realTransaction, description });
    expect(row.compute_skipped).toBe(true);
    expect(row.compute_skip_reason).toBe('no_state');
  });

  it('normalises addresses: lower-case raw and user-friendly forms become raw upper case', () => {
    const row = onlyRow(transactionsStream, {
      ...realTransaction,
      account: (realTransaction.account as string).toLowerCase(),
      in_msg: { ...(realTransaction.in_msg as Json), source: 'EQBS114FhHMAASOdTNjHPWUbIG6sZ9tVFTW2ttUF5tQcd-kx' },
    });
    expect(row.account).toBe(realTransaction.account);
    const msg = onlyRow(
      transactionsStream,
      { ...realTransaction, in_msg: { ...(realTransaction.in_msg as Json), source: 'EQBS114FhHMAASOdTNjHPWUbIG6sZ9tVFTW2ttUF5tQcd-kx' } },
      messagesTable,
    );
    expect(msg.source).toBe('0:52D75E0584730001239D4CD8C73D651B206EAC67DB551535B6B6D505E6D41C77');
  });
});

describe('actions', () => {
  it('loads an unknown action type: nothing lifted, details kept as JSON', () => {
    const details = { pool: '0:AB', legs: [{ amount: '1' }], note: 'new in v9' };
    const row = onlyRow(actionsStream, { ...realAction, type: 'quantum_swap', details });
    expect(row).toMatchObject({ type: 'quantum_swap', source: null, destination: null, asset: null, amount: null, comment: null });
    expect(JSON.parse(row.details as string)).toEqual(details);
  });

  it("loads the server's unsupported-type placeholder and actions without details", () => {
    const unsupported = { error: "unsupported action type: 'jetton_swap'" };
    expect(JSON.parse(onlyRow(actionsStream, { ...realAction, type: 'jetton_swap', details: unsupported }).details as string)).toEqual(unsupported);
    const { details: _, ...withoutDetails } = realAction;
    expect(onlyRow(actionsStream, withoutDetails).details).toBeNull();
  });

  it('lifts jetton transfers: sender, receiver, asset, amount, comment', () => {
    const details = {
      asset: '0:D3061B39DA35C0F52ECFDF1B92BC2A21818A9B92541D2502D0F7C03736577B40',
      sender: '0:21D6615A74625CA8BEB3C7A5777978A1239EE8148B1DF18C7B8A8A3215523DA0',
      receiver: '0:D8CA6DD04573304609A70EE5104A8D29090E1FC631B29A8E0411172AAA52885A',
      amount: '1000000000000',
      comment: 'thanks',
      is_encrypted_comment: false,
    };
    expect(onlyRow(actionsStream, { ...realAction, type: 'jetton_transfer', details })).toMatchObject({
      source: details.sender,
      destination: details.receiver,
      asset: details.asset,
      amount: 1000000000000n,
      comment: 'thanks',
    });
    expect(onlyRow(actionsStream, { ...realAction, type: 'jetton_transfer', details: { ...details, is_encrypted_comment: true } }).comment).toBeNull();
  });

  it('lifts election deposits and nft transfers', () => {
    const holder = '-1:5F162BE1BA73FA3DC659695515B85F361FE4BC2C1CC08C4F96B131E709386610';
    expect(onlyRow(actionsStream, { ...realAction, type: 'election_deposit', details: { stake_holder: holder, amount: '5' } })).toMatchObject({
      source: holder,
      destination: null,
      amount: 5n,
    });
    const item = '0:52D75E0584730001239D4CD8C73D651B206EAC67DB551535B6B6D505E6D41C77';
    const nft = onlyRow(actionsStream, { ...realAction, type: 'nft_transfer', details: { nft_item: item, old_owner: null, new_owner: holder, price: '9' } });
    expect(nft).toMatchObject({ source: null, destination: holder, asset: item, amount: null });
  });

  it('rejects a known type whose lifted field is malformed, naming the field', () => {
    const details = { ...(realAction.details as Json), value: 'lots' };
    expect(rejectReason(actionsStream, { ...realAction, details })).toContain('details.value');
  });

  it('writes one action_accounts row per distinct account, replaced by trace like actions', () => {
    const accounts = [
      '0:21D6615A74625CA8BEB3C7A5777978A1239EE8148B1DF18C7B8A8A3215523DA0',
      '0:D8CA6DD04573304609A70EE5104A8D29090E1FC631B29A8E0411172AAA52885A',
      '0:21D6615A74625CA8BEB3C7A5777978A1239EE8148B1DF18C7B8A8A3215523DA0',
    ];
    const { rows } = runStream(actionsStream, [{ ...realAction, accounts }]);
    expect(rows.get(actionAccountsTable.name)!.map((row) => row.account)).toEqual(accounts.slice(0, 2));
    expect(actionsTable.replaceBy).toBe('trace_id');
    expect(actionAccountsTable.replaceBy).toBe('trace_id');
    expect(actionsStream.rescansOverlap).toBe(true);
  });

  it('keeps an unknown finality as text', () => {
    expect(onlyRow(actionsStream, { ...realAction, finality: 'unknown_3' }).finality).toBe('unknown_3');
  });
});

describe('jetton transfers', () => {
  it('turns v1.3 empty-string addresses into null', () => {
    const row = onlyRow(jettonTransfersStream, { ...realTransfer, source: '', response_destination: '' });
    expect(row.source).toBeNull();
    expect(row.response_destination).toBeNull();
  });

  it('decodes the comment from the forward payload BoC', () => {
    const payload = beginCell().storeUint(0, 32).storeStringTail('gm').endCell().toBoc().toString('base64');
    expect(onlyRow(jettonTransfersStream, { ...realTransfer, forward_payload: payload }).comment).toBe('gm');
  });
});

describe('validator events', () => {
  it('flattens an event; optional fields absent become null', () => {
    const row = onlyRow(validatorEventsStream, realEvent);
    expect(row).toMatchObject({ tx_lt: 60000008000002n, tx_time: 1767225633, block_date: '2026-01-01', stake_holder: realEvent.stake_holder_address, election_id: 1767226200n, amount: 300000000000000n, reason: null, adnl_addr: null });
    expect(validatorEventsStream.key(runStream(validatorEventsStream, [realEvent]).items[0]!)).toBe(
      `${realEvent.tx_hash}|stake_accepted|${realEvent.stake_holder_address}`,
    );
    expect(validatorEventsStream.position(runStream(validatorEventsStream, [realEvent]).items[0]!)).toBe(1767225633n);
  });
});

describe('registry', () => {
  // New streams are added after these, so the order help and docs show the first ones never changes.
  const FIRST_STREAMS = ['transactions', 'actions', 'jetton_transfers', 'validator_events'];

  it('lists the streams in the order help and docs show them, each once, and finds each by its name', () => {
    expect(STREAM_NAMES.slice(0, FIRST_STREAMS.length)).toEqual(FIRST_STREAMS);
    expect(new Set(STREAM_NAMES).size).toBe(STREAM_NAMES.length);
    expect(allStreams.map((stream) => stream.name)).toEqual(STREAM_NAMES);
    for (const stream of allStreams) expect(streamByName(stream.name)).toBe(stream);
    expect(() => streamByName('transfers')).toThrow(/^Unknown stream "transfers": expected one of transactions, actions, jetton_transfers, validator_events/);
  });

  it('lists every data table once, in the order of the streams, addresses last', () => {
    const names = dataTables.map((table) => table.name);
    expect(names.slice(0, 6)).toEqual([
      transactionsTable.name,
      messagesTable.name,
      actionsTable.name,
      actionAccountsTable.name,
      jettonTransfersTable.name,
      validatorEventsTable.name,
    ]);
    expect(names.at(-1)).toBe('addresses');
    expect(new Set(names).size).toBe(names.length);
    for (const stream of allStreams) for (const table of stream.tables) expect(names, stream.name).toContain(table.name);
  });
});
