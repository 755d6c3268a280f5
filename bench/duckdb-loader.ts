/**
 * The yardstick of benchmark 3: DuckDB's own loader. Reads saved /api/v3/transactions pages
 * (`page-*.json`, the raw response bodies) with one `read_json` over the folder (explicit column
 * types, so DuckDB parses each page once) and fills the same three tables the ETL writes
 * (`transactions`, `messages`, `addresses`, DDL from the stream definitions), deduplicated by primary
 * key, as one bulk load. With --parquet it loads into memory and then writes the tables as
 * Hive-partitioned zstd Parquet by day, as the Parquet sink lays them out.
 *
 *   node .bench-build/bench/duckdb-loader.js --pages DIR (--db FILE | --parquet DIR)
 *
 * Differences from the ETL, none in its favour: no validation (a malformed item fails the load),
 * comments only from the API's `decoded` form (the ETL also decodes BoCs without one), no
 * checkpoints, one commit instead of one per page.
 */
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { DuckDBInstance, quotedIdentifier, quotedString } from '@duckdb/node-api';
import { createTableSql } from '../src/core/ddl.js';
import type { AnyTable } from '../src/core/table.js';
import { messagesTable, transactionsTable } from '../src/streams/transactions.js';
import { addressesTable } from '../src/transform/address-book.js';

const amount = (expr: string): string => `CAST(${expr} AS DECIMAL(38,0))`;

const MESSAGE = `STRUCT(hash VARCHAR, source VARCHAR, destination VARCHAR, value VARCHAR, fwd_fee VARCHAR, ihr_fee VARCHAR,
  import_fee VARCHAR, created_lt VARCHAR, created_at VARCHAR, opcode VARCHAR, decoded_opcode VARCHAR, ihr_disabled BOOLEAN,
  bounce BOOLEAN, bounced BOOLEAN, message_content STRUCT(hash VARCHAR, body VARCHAR, decoded STRUCT(type VARCHAR, comment VARCHAR)),
  init_state STRUCT(hash VARCHAR), hash_norm VARCHAR)`;
const STATE = 'STRUCT(hash VARCHAR, balance VARCHAR, account_status VARCHAR, data_hash VARCHAR, code_hash VARCHAR)';
const TRANSACTION = `STRUCT(account VARCHAR, hash VARCHAR, lt UBIGINT, now BIGINT, mc_block_seqno INTEGER, trace_id VARCHAR,
  trace_external_hash VARCHAR, prev_trans_hash VARCHAR, prev_trans_lt UBIGINT, orig_status VARCHAR, end_status VARCHAR,
  total_fees VARCHAR,
  description STRUCT(type VARCHAR, aborted BOOLEAN, destroyed BOOLEAN, credit_first BOOLEAN, is_tock BOOLEAN, installed BOOLEAN,
    storage_ph STRUCT(storage_fees_collected VARCHAR, storage_fees_due VARCHAR, status_change VARCHAR),
    credit_ph STRUCT(due_fees_collected VARCHAR, credit VARCHAR),
    compute_ph STRUCT(skipped BOOLEAN, reason VARCHAR, type VARCHAR, skip_reason VARCHAR, success BOOLEAN, account_activated BOOLEAN,
      gas_fees VARCHAR, gas_used BIGINT, gas_limit BIGINT, gas_credit BIGINT, mode INTEGER, exit_code INTEGER, exit_arg INTEGER, vm_steps BIGINT),
    action STRUCT(success BOOLEAN, valid BOOLEAN, no_funds BOOLEAN, status_change VARCHAR, total_fwd_fees VARCHAR, total_action_fees VARCHAR,
      result_code INTEGER, result_arg INTEGER, tot_actions INTEGER, skipped_actions INTEGER, msgs_created INTEGER),
    bounce STRUCT(type VARCHAR, req_fwd_fees VARCHAR, msg_fees VARCHAR, fwd_fees VARCHAR)),
  block_ref STRUCT(workchain INTEGER, shard VARCHAR, seqno INTEGER),
  in_msg ${MESSAGE}, out_msgs ${MESSAGE}[],
  account_state_before ${STATE}, account_state_after ${STATE}, emulated BOOLEAN, finality VARCHAR)`;
const ADDRESS_BOOK = 'MAP(VARCHAR, STRUCT(user_friendly VARCHAR, domain VARCHAR, interfaces VARCHAR[]))';

/** The UTC day of the transaction `t`, as the tables' `block_date`. */
const BLOCK_DATE = "CAST(to_timestamp(t.now) AT TIME ZONE 'UTC' AS DATE)";

/** Column → SQL over `t` (a transaction) for the transactions table. */
const transactionColumns: Record<string, string> = {
  tx_hash: 't.hash',
  tx_hash_hex: 'lower(hex(from_base64(t.hash)))',
  account: 'upper(t.account)',
  tx_lt: 't.lt',
  tx_time: 'to_timestamp(t.now)',
  block_date: BLOCK_DATE,
  mc_block_seqno: 't.mc_block_seqno',
  block_workchain: 't.block_ref.workchain',
  block_shard: 't.block_ref.shard',
  block_seqno: 't.block_ref.seqno',
  trace_id: 't.trace_id',
  trace_external_hash: 't.trace_external_hash',
  prev_tx_hash: 't.prev_trans_hash',
  prev_tx_lt: 't.prev_trans_lt',
  orig_status: 't.orig_status',
  end_status: 't.end_status',
  total_fees: amount('t.total_fees'),
  descr_type: 't.description.type',
  aborted: 't.description.aborted',
  destroyed: 't.description.destroyed',
  credit_first: 't.description.credit_first',
  is_tock: 't.description.is_tock',
  installed: 't.description.installed',
  storage_fees_collected: amount('t.description.storage_ph.storage_fees_collected'),
  storage_fees_due: amount('t.description.storage_ph.storage_fees_due'),
  storage_status_change: 't.description.storage_ph.status_change',
  due_fees_collected: amount('t.description.credit_ph.due_fees_collected'),
  credit: amount('t.description.credit_ph.credit'),
  compute_skipped:
    "CASE WHEN t.description.compute_ph IS NULL THEN NULL ELSE coalesce(t.description.compute_ph.skipped, t.description.compute_ph.type = 'skipped') END",
  compute_skip_reason: 'coalesce(t.description.compute_ph.reason, t.description.compute_ph.skip_reason)',
  compute_success: 't.description.compute_ph.success',
  compute_account_activated: 't.description.compute_ph.account_activated',
  compute_exit_code: 't.description.compute_ph.exit_code',
  compute_exit_arg: 't.description.compute_ph.exit_arg',
  compute_gas_used: 't.description.compute_ph.gas_used',
  compute_gas_limit: 't.description.compute_ph.gas_limit',
  compute_gas_credit: 't.description.compute_ph.gas_credit',
  compute_gas_fees: amount('t.description.compute_ph.gas_fees'),
  compute_vm_steps: 't.description.compute_ph.vm_steps',
  compute_mode: 't.description.compute_ph.mode',
  action_success: 't.description.action.success',
  action_valid: 't.description.action.valid',
  action_no_funds: 't.description.action.no_funds',
  action_result_code: 't.description.action.result_code',
  action_result_arg: 't.description.action.result_arg',
  action_tot_actions: 't.description.action.tot_actions',
  action_skipped_actions: 't.description.action.skipped_actions',
  action_msgs_created: 't.description.action.msgs_created',
  action_total_fwd_fees: amount('t.description.action.total_fwd_fees'),
  action_total_action_fees: amount('t.description.action.total_action_fees'),
  action_status_change: 't.description.action.status_change',
  bounce_type: 't.description.bounce.type',
  bounce_req_fwd_fees: amount('t.description.bounce.req_fwd_fees'),
  bounce_msg_fees: amount('t.description.bounce.msg_fees'),
  bounce_fwd_fees: amount('t.description.bounce.fwd_fees'),
  balance_before: amount('t.account_state_before.balance'),
  balance_after: amount('t.account_state_after.balance'),
  status_before: 't.account_state_before.account_status',
  status_after: 't.account_state_after.account_status',
  state_hash_before: 't.account_state_before.hash',
  state_hash_after: 't.account_state_after.hash',
  code_hash_after: 't.account_state_after.code_hash',
  data_hash_after: 't.account_state_after.data_hash',
  in_msg_hash: 't.in_msg.hash',
  out_msg_count: 'coalesce(len(t.out_msgs), 0)',
  finality: 't.finality',
  emulated: 't.emulated',
};

/** Column → SQL over `t` (the transaction), `m` (one of its messages) and `direction`. */
const messageColumns: Record<string, string> = {
  tx_hash: 't.hash',
  direction: 'direction',
  msg_hash: 'm.hash',
  tx_lt: 't.lt',
  tx_time: 'to_timestamp(t.now)',
  block_date: BLOCK_DATE,
  trace_id: 't.trace_id',
  source: 'upper(m.source)',
  destination: 'upper(m.destination)',
  value: amount('m.value'),
  fwd_fee: amount('m.fwd_fee'),
  ihr_fee: amount('m.ihr_fee'),
  import_fee: amount('m.import_fee'),
  created_lt: 'CAST(m.created_lt AS UBIGINT)',
  created_time: 'to_timestamp(CAST(m.created_at AS BIGINT))',
  opcode: 'CAST(m.opcode AS BIGINT)',
  decoded_opcode: 'm.decoded_opcode',
  bounce: 'm.bounce',
  bounced: 'm.bounced',
  ihr_disabled: 'm.ihr_disabled',
  body_hash: 'm.message_content.hash',
  body: 'm.message_content.body',
  comment: "CASE WHEN m.message_content.decoded.type = 'text_comment' THEN m.message_content.decoded.comment END",
  init_state_hash: 'm.init_state.hash',
  msg_hash_norm: 'm.hash_norm',
};

const addressColumns: Record<string, string> = {
  address: 'upper(e.key)',
  user_friendly: 'e.value.user_friendly',
  domain: 'e.value.domain',
  interfaces: 'coalesce(e.value.interfaces, [])',
};

/** SELECT list in the table's column order; fails if the mapping misses or adds a column. */
function selectList(table: AnyTable, columns: Record<string, string>): string {
  const mapped = Object.keys(columns);
  const missing = table.columnNames.filter((name) => !mapped.includes(name));
  const extra = mapped.filter((name) => !table.columnNames.includes(name));
  if (missing.length > 0 || extra.length > 0) throw new Error(`loader mapping of ${table.name}: missing ${missing.join(', ')}; extra ${extra.join(', ')}`);
  return table.columnNames.map((name) => `${columns[name]} AS ${quotedIdentifier(name)}`).join(',\n  ');
}

export function loadSql(pagesGlob: string): string[] {
  const source = `read_json(${quotedString(pagesGlob)}, format = 'auto', columns = {transactions: '${TRANSACTION.replace(/\s+/g, ' ')}[]', address_book: '${ADDRESS_BOOK}'})`;
  const key = (table: AnyTable): string => table.primaryKey.map(quotedIdentifier).join(', ');
  return [
    `CREATE TEMP TABLE pages AS SELECT transactions, address_book FROM ${source}`,
    `CREATE TEMP TABLE tx AS SELECT unnest(transactions) AS t FROM pages`,
    `INSERT INTO transactions SELECT DISTINCT ON (${key(transactionsTable)}) * FROM (SELECT\n  ${selectList(transactionsTable, transactionColumns)}\nFROM tx)`,
    `INSERT INTO messages SELECT DISTINCT ON (${key(messagesTable)}) * FROM (SELECT\n  ${selectList(messagesTable, messageColumns)}\nFROM (
       SELECT t, t.in_msg AS m, 'in' AS direction FROM tx WHERE t.in_msg IS NOT NULL
       UNION ALL
       SELECT t, unnest(t.out_msgs) AS m, 'out' AS direction FROM tx))`,
    `INSERT INTO addresses SELECT DISTINCT ON (${key(addressesTable)}) * FROM (SELECT\n  ${selectList(addressesTable, addressColumns)}\nFROM (SELECT unnest(map_entries(address_book)) AS e FROM pages))`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { pages: { type: 'string' }, db: { type: 'string' }, parquet: { type: 'string' } } });
  const instance = await DuckDBInstance.create(values.db ?? ':memory:');
  const connection = await instance.connect();
  const tables = [transactionsTable, messagesTable, addressesTable] as AnyTable[];
  for (const table of tables) await connection.run(createTableSql(table));
  await connection.run('BEGIN TRANSACTION');
  for (const sql of loadSql(join(values.pages!, 'page-*.json'))) await connection.run(sql);
  await connection.run('COMMIT');
  if (values.parquet !== undefined) {
    for (const table of tables) {
      const day = table.partitionBy === undefined ? undefined : 'tx_time';
      const target = quotedString(join(values.parquet, table.name));
      await connection.run(
        day === undefined
          ? `COPY ${quotedIdentifier(table.name)} TO ${quotedString(join(values.parquet, `${table.name}.parquet`))} (FORMAT parquet, COMPRESSION zstd)`
          : `COPY (SELECT *, strftime(timezone('UTC', ${day}), '%Y-%m-%d') AS date FROM ${quotedIdentifier(table.name)}) TO ${target} ` +
              `(FORMAT parquet, COMPRESSION zstd, PARTITION_BY (date), OVERWRITE_OR_IGNORE)`,
      );
    }
  }
  const counts = await connection.runAndReadAll(`SELECT (SELECT count(*) FROM transactions), (SELECT count(*) FROM messages), (SELECT count(*) FROM addresses)`);
  const [transactions, messages, addresses] = counts.getRows()[0]!.map(Number);
  connection.closeSync();
  instance.closeSync();
  console.log(JSON.stringify({ transactions, messages, addresses }));
}
