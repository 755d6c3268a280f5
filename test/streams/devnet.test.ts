/**
 * Every object the devnet serves for a stream's dataset (its ground truth) parses with the stream's
 * item schema, and toRows turns it into exactly one main-table row whose values the sink accepts.
 */
import { describe, expect, it } from 'vitest';
import type { StreamDefinition } from '../../src/core/stream.js';
import type { AnyTable } from '../../src/core/table.js';
import { buildDevnetApi } from '../../src/devnet/index.js';
import { truthRows, type TruthDataset } from '../../src/devnet/truth.js';
import { actionAccountsTable, actionsStream, actionsTable } from '../../src/streams/actions.js';
import { blocksStream, blocksTable } from '../../src/streams/blocks.js';
import { jettonBurnsStream, jettonBurnsTable } from '../../src/streams/jetton-burns.js';
import { jettonTransfersStream, jettonTransfersTable } from '../../src/streams/jetton-transfers.js';
import { nftTransfersStream, nftTransfersTable } from '../../src/streams/nft-transfers.js';
import { tracesStream, tracesTable } from '../../src/streams/traces.js';
import { messagesTable, transactionsStream, transactionsTable } from '../../src/streams/transactions.js';
import { validatorCycleMembersTable, validatorCyclesStream, validatorCyclesTable } from '../../src/streams/validator-cycles.js';
import { validatorElectionsStream, validatorElectionsTable } from '../../src/streams/validator-elections.js';
import { validatorEventsStream, validatorEventsTable } from '../../src/streams/validator-events.js';
import { duplicateKeys, rowProblems, runStream } from './rows.js';

const api = buildDevnetApi({ seed: 7, blocks: 200 });

interface DevnetCase {
  readonly stream: StreamDefinition;
  readonly dataset: TruthDataset;
  readonly main: AnyTable;
}

const cases: readonly DevnetCase[] = [
  { stream: transactionsStream, dataset: 'transactions', main: transactionsTable },
  { stream: actionsStream, dataset: 'actions', main: actionsTable },
  { stream: jettonTransfersStream, dataset: 'jetton_transfers', main: jettonTransfersTable },
  { stream: validatorEventsStream, dataset: 'validator_events', main: validatorEventsTable },
  { stream: blocksStream, dataset: 'blocks', main: blocksTable },
  { stream: jettonBurnsStream, dataset: 'jetton_burns', main: jettonBurnsTable },
  { stream: nftTransfersStream, dataset: 'nft_transfers', main: nftTransfersTable },
  { stream: validatorCyclesStream, dataset: 'validator_cycles', main: validatorCyclesTable },
  { stream: validatorElectionsStream, dataset: 'validator_elections', main: validatorElectionsTable },
  { stream: tracesStream, dataset: 'traces', main: tracesTable },
];

describe.each(cases)('devnet truth of $dataset through the $stream.name stream', ({ stream, dataset, main }) => {
  const truth = truthRows(api, dataset);
  const output = runStream(stream, truth);

  it('has objects to check', () => {
    expect(truth.length).toBeGreaterThan(0);
  });

  it('parses every object: no rejects', () => {
    expect(output.rejects).toEqual([]);
    expect(output.items).toHaveLength(truth.length);
  });

  it(`gives exactly one ${main.name} row per item, with distinct keys`, () => {
    const rows = output.rows.get(main.name)!;
    expect(rows).toHaveLength(truth.length);
    expect(duplicateKeys(main, rows)).toEqual([]);
    expect(new Set(output.items.map((item) => stream.key(item))).size).toBe(truth.length);
  });

  it('gives rows the sink accepts, in every table', () => {
    for (const table of stream.tables) {
      const rows = output.rows.get(table.name)!;
      expect(rowProblems(table, rows)).toEqual([]);
      expect(duplicateKeys(table, rows)).toEqual([]);
    }
  });

  it('keeps positions in the order the endpoint sorts by', () => {
    const positions = output.items.map((item) => stream.position(item));
    expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });
});

describe('devnet rows, checked against the objects they came from', () => {
  it('transactions: one message row per inbound and outbound message, comments decoded from the BoC', () => {
    const truth = truthRows(api, 'transactions') as { in_msg: unknown; out_msgs: { message_content: { body: string; decoded: { comment?: string } | null } }[] }[];
    const { rows } = runStream(transactionsStream, truth);
    const expected = truth.reduce((sum, tx) => sum + (tx.in_msg === null ? 0 : 1) + tx.out_msgs.length, 0);
    expect(rows.get(messagesTable.name)).toHaveLength(expected);
    const withComment = (rows.get(messagesTable.name) ?? []).filter((row) => row.comment !== null);
    expect(withComment.length).toBeGreaterThan(0);
    // The devnet sends `decoded` for text bodies; decoding the BoC alone must give the same text.
    const bodiesOnly = truth.map((tx) => ({
      ...tx,
      out_msgs: tx.out_msgs.map((msg) => ({ ...msg, message_content: { ...msg.message_content, decoded: null } })),
    }));
    const fromBoc = runStream(transactionsStream, bodiesOnly).rows.get(messagesTable.name)!;
    const outComments = (list: readonly { direction?: unknown; comment?: unknown }[]): unknown[] =>
      list.filter((row) => row.direction === 'out').map((row) => row.comment);
    expect(outComments(fromBoc)).toEqual(outComments(rows.get(messagesTable.name)!));
  });

  it('jetton transfers: amounts above 2^100 arrive exact, forward-payload comments decoded', () => {
    const truth = truthRows(api, 'jetton_transfers') as { amount: string; decoded_forward_payload: { comment: string } | null }[];
    const rows = runStream(jettonTransfersStream, truth).rows.get(jettonTransfersTable.name)!;
    expect(rows.map((row) => row.amount)).toEqual(truth.map((t) => BigInt(t.amount)));
    expect(rows.some((row) => (row.amount as bigint) > 2n ** 100n)).toBe(true);
    expect(rows.map((row) => row.comment)).toEqual(truth.map((t) => t.decoded_forward_payload?.comment ?? null));
  });

  it('actions: every involved account becomes an action_accounts row, lifted columns filled for known types', () => {
    const truth = truthRows(api, 'actions') as { accounts: string[]; type: string }[];
    const { rows } = runStream(actionsStream, truth);
    expect(rows.get(actionAccountsTable.name)).toHaveLength(truth.reduce((sum, a) => sum + new Set(a.accounts).size, 0));
    const actions = rows.get(actionsTable.name)!;
    for (const row of actions.filter((r) => r.type === 'ton_transfer' || r.type === 'jetton_transfer')) {
      expect(row.source).not.toBeNull();
      expect(row.destination).not.toBeNull();
      expect(row.amount).not.toBeNull();
    }
    expect(actions.filter((r) => r.type === 'jetton_transfer').every((r) => r.asset !== null)).toBe(true);
  });

  it('validator cycles: the complaints against a validator in its cycle are counted on its member row', () => {
    const truth = truthRows(api, 'validator_cycles') as { validators: { complaints: unknown[] }[] }[];
    const members = runStream(validatorCyclesStream, truth).rows.get(validatorCycleMembersTable.name)!;
    expect(members.map((row) => row.complaints)).toEqual(truth.flatMap((cycle) => cycle.validators.map((v) => v.complaints.length)));
    expect(members.some((row) => (row.complaints as number) > 0)).toBe(true);
  });
});
