/**
 * The macros and views a warehouse defines for analysts (see src/core/warehouse-views.ts): exact
 * scaling of amounts, the joins and rollups asked for first, and which days are complete (`_etl_days`).
 */
import { quotedIdentifier } from '../core/sql-quote.js';
import type { AnalystDefinitions } from '../core/warehouse-views.js';
import type { AnyTable } from '../core/table.js';
import { actionAccountsTable, actionsTable } from './actions.js';
import { addressesTable } from '../transform/address-book.js';
import { etlDaysView } from './etl-days.js';
import { jettonMastersTable } from './jetton-masters.js';
import { jettonTransfersTable } from './jetton-transfers.js';
import { transactionsTable } from './transactions.js';

const t = (table: AnyTable): string => quotedIdentifier(table.name);

/**
 * A raw jetton amount scaled by its decimals, exact, as DECIMAL(38,18) (docs/design.md §4): the
 * amount times 10^(18 − decimals) in HUGEINT is the value in units of 10^-18, and a DECIMAL product
 * keeps it exact (a quotient would be DOUBLE). NULL where that is not exact: decimals unknown or
 * above 18, or 10^20 tokens or more.
 */
function tokens(amount: string, decimals: string): string {
  const power = (exponent: string): string => `CAST('1' || repeat('0', ${exponent}) AS HUGEINT)`;
  return `CASE WHEN ${decimals} IS NULL OR ${decimals} > 18 OR CAST(${amount} AS HUGEINT) >= ${power(`20 + ${decimals}`)} THEN NULL
    ELSE CAST(CAST(${amount} AS HUGEINT) * ${power(`18 - ${decimals}`)} AS DECIMAL(38,0)) * CAST('0.000000000000000001' AS DECIMAL(18,18)) END`;
}

/** Jetton transfers with friendly addresses and, `withMasters`, the token's symbol, decimals and scaled amount. */
function readableTransfers(withMasters: boolean): string {
  const masters = (line: string): string[] => (withMasters ? [line] : []);
  return [
    'SELECT',
    '  t.tx_hash,',
    '  t.tx_time,',
    '  t.tx_lt,',
    '  t.block_date,',
    '  t.jetton_master,',
    '  m.user_friendly AS jetton_master_friendly,',
    ...masters('  j.symbol,'),
    ...masters('  j.decimals,'),
    '  t.source,',
    '  s.user_friendly AS source_friendly,',
    '  t.destination,',
    '  d.user_friendly AS destination_friendly,',
    '  t.amount,',
    ...masters(`  ${tokens('t.amount', 'j.decimals')} AS amount_tokens,`),
    '  t.forward_ton_amount,',
    '  t.comment,',
    '  t.query_id,',
    '  t.trace_id',
    `FROM ${t(jettonTransfersTable)} AS t`,
    `LEFT JOIN ${t(addressesTable)} AS m ON m.address = t.jetton_master`,
    ...masters(`LEFT JOIN ${t(jettonMastersTable)} AS j ON j.jetton_master = t.jetton_master`),
    `LEFT JOIN ${t(addressesTable)} AS s ON s.address = t.source`,
    `LEFT JOIN ${t(addressesTable)} AS d ON d.address = t.destination`,
  ].join('\n');
}

export const analystDefinitions: AnalystDefinitions = {
  macros: [
    {
      name: 'ton',
      doc: 'Nanoton to TON, exact: DECIMAL(38,9) (every DECIMAL(38,0) amount fits), never DOUBLE; ton(1) = 0.000000001.',
      parameters: ['nanoton'],
      // A DECIMAL product keeps both scales exactly; a quotient (`/ 1e9`) is DOUBLE in DuckDB.
      body: 'CAST(nanoton AS DECIMAL(38,0)) * CAST(0.000000001 AS DECIMAL(10,9))',
    },
  ],
  views: [
    {
      name: 'jetton_transfers_readable',
      doc:
        'Jetton transfers with the user-friendly forms of the jetton master, source and destination, the token\'s symbol and decimals (from jetton_masters) and amount_tokens, the amount scaled by decimals exactly as DECIMAL(38,18): NULL where it is not exact in that type (decimals unknown or above 18, or 10^20 tokens or more), the raw amount beside it. Without jetton_masters in the warehouse, the same view without symbol, decimals and amount_tokens.',
      reads: [jettonTransfersTable, addressesTable, jettonMastersTable],
      select: readableTransfers(true),
    },
    {
      name: 'jetton_transfers_readable',
      doc: 'Jetton transfers with the user-friendly forms of the jetton master, source and destination (from addresses); amounts in raw jetton units.',
      reads: [jettonTransfersTable, addressesTable],
      select: readableTransfers(false),
    },
    {
      name: 'daily_transactions',
      doc: 'Per UTC day: transactions, aborted transactions, distinct accounts and total fees (nanoton).',
      reads: [transactionsTable],
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
      reads: [actionAccountsTable, actionsTable],
      select: `SELECT aa.account, a.*
FROM ${t(actionAccountsTable)} AS aa
JOIN ${t(actionsTable)} AS a ON a.action_id = aa.action_id`,
    },
    etlDaysView,
  ],
};
