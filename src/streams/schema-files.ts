/**
 * The checked-in files under schemas/, generated from the table definitions (never hand-edited):
 * the DuckDB DDL of the whole warehouse with its documentation and a few views, and the data
 * dictionary. `npm run generate` writes them (scripts/generated-files.ts).
 */
import { quotedIdentifier, quotedString } from '@duckdb/node-api';
import { bookkeepingTables } from '../core/bookkeeping.js';
import { commentsSql, createTableSql } from '../core/ddl.js';
import { dictionaryMarkdown } from '../core/dictionary.js';
import type { AnyTable } from '../core/table.js';
import { actionAccountsTable, actionsTable } from './actions.js';
import { addressesTable } from './addresses.js';
import { dataTables } from './index.js';
import { jettonTransfersTable } from './jetton-transfers.js';
import { transactionsTable } from './transactions.js';

/** Folder of the generated files, relative to the project root. */
export const SCHEMAS_DIR = 'schemas';

/** A convenience view shipped with the warehouse DDL. */
export interface ViewDefinition {
  readonly name: string;
  /** What one row is; becomes the view's COMMENT and its dictionary entry. */
  readonly doc: string;
  readonly select: string;
}

const t = (table: AnyTable): string => quotedIdentifier(table.name);

/** Views over the tables: joins and rollups analysts ask for first. Amounts stay raw (no decimals applied). */
export const views: readonly ViewDefinition[] = [
  {
    name: 'jetton_transfers_readable',
    doc: 'Jetton transfers with the user-friendly forms of the jetton master, source and destination (from addresses); amounts in raw jetton units.',
    select: `SELECT
  t.tx_hash,
  t.tx_time,
  t.tx_lt,
  t.block_date,
  t.jetton_master,
  m.user_friendly AS jetton_master_friendly,
  t.source,
  s.user_friendly AS source_friendly,
  t.destination,
  d.user_friendly AS destination_friendly,
  t.amount,
  t.forward_ton_amount,
  t.comment,
  t.query_id,
  t.trace_id
FROM ${t(jettonTransfersTable)} AS t
LEFT JOIN ${t(addressesTable)} AS m ON m.address = t.jetton_master
LEFT JOIN ${t(addressesTable)} AS s ON s.address = t.source
LEFT JOIN ${t(addressesTable)} AS d ON d.address = t.destination`,
  },
  {
    name: 'daily_transactions',
    doc: 'Per UTC day: transactions, aborted transactions, distinct accounts and total fees (nanoton).',
    select: `SELECT
  block_date AS day,
  count(*) AS transactions,
  count(*) FILTER (WHERE aborted) AS aborted,
  count(DISTINCT account) AS accounts,
  sum(total_fees) AS total_fees
FROM ${t(transactionsTable)}
GROUP BY day`,
  },
  {
    name: 'account_actions',
    doc: 'Every action once per account it involves: filter by account to get the history of a wallet or contract.',
    select: `SELECT aa.account, a.*
FROM ${t(actionAccountsTable)} AS aa
JOIN ${t(actionsTable)} AS a ON a.action_id = aa.action_id`,
  },
];

const NOTICE = 'Generated from the table definitions in src/ by renderSchemaFiles() (src/streams/schema-files.ts); do not edit. Regenerate with `npm run generate`.';

/** Every table of the warehouse in creation order: stream tables, the addresses dimension, bookkeeping. */
export const warehouseTables: readonly AnyTable[] = [...dataTables, ...bookkeepingTables];

/** File name (within schemas/) → content. */
export function renderSchemaFiles(): Map<string, string> {
  return new Map([
    ['warehouse.sql', warehouseSql()],
    ['DATA_DICTIONARY.md', dictionary()],
  ]);
}

function warehouseSql(): string {
  const parts = [`-- chain-etl warehouse (DuckDB): tables, documentation and views.\n-- ${NOTICE}`];
  for (const table of warehouseTables) parts.push(`${createTableSql(table)}\n${commentsSql(table)}`);
  for (const view of views) {
    const name = quotedIdentifier(view.name);
    parts.push(`CREATE OR REPLACE VIEW ${name} AS\n${view.select};\nCOMMENT ON VIEW ${name} IS ${quotedString(view.doc)};`);
  }
  return `${parts.join('\n\n')}\n`;
}

function dictionary(): string {
  const lines = [`<!-- ${NOTICE} -->`, '', dictionaryMarkdown(warehouseTables).trimEnd(), '', '## Views', '', '| view | what it shows |', '|---|---|'];
  for (const view of views) lines.push(`| ${view.name} | ${view.doc.replaceAll('|', '\\|')} |`);
  return `${lines.join('\n')}\n`;
}
