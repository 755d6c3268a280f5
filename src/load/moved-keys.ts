import { quotedIdentifier } from '../core/sql-quote.js';
import type { AnyTable, Row } from '../core/table.js';
import { clusterBetween, type ClusterRange } from './cluster-range.js';
import type { TableChange } from './commit-plan.js';

/**
 * A key the service lists again at another position (the same `tx_hash` at a second lt) escapes a
 * commit's delete, which only looks inside the commit's `clusterBy` range; looking everywhere would
 * scan the whole table's keys at every commit (1.1 s instead of 70 ms at 5M transactions). So each
 * sink records, in the commit itself, the `clusterBy` range its commits wrote since the last sweep
 * (the table's unswept range: written-ranges.ts), and at the end of a run `sweepMovedKeys` keeps one
 * row per key that has a row in that range: the one at the range's latest position of the key (the
 * row read last), deleting the key's rows anywhere else; a run that fails sweeps what it committed
 * too. A killed run's range (or one whose sweep failed) stays recorded for the next run's sweep.
 */

/** A sweep's change: the kept rows, replacing every stored row of their keys wherever it lies. */
export function sweepChange(table: AnyTable, rows: readonly Row[]): TableChange {
  return { table, rows, replace: [], superseded: 0, keysAnywhere: true };
}

/**
 * A relation of the rows a sweep keeps, from `from` (the table's stored rows): for each key stored
 * more than once with a row in `range`, its row in the range at the latest position.
 */
export function keptRowsSql(table: AnyTable, from: string, range: ClusterRange): string {
  const qualified = (alias: string, columns: readonly string[]): string => columns.map((c) => `${alias}.${quotedIdentifier(c)}`).join(', ');
  const sameKey = (a: string, b: string): string => table.primaryKey.map((c) => `${a}.${quotedIdentifier(c)} = ${b}.${quotedIdentifier(c)}`).join(' AND ');
  const cluster = quotedIdentifier(range.column);
  const inRange = `true${clusterBetween(table, range, 't')}`;
  return (
    `(WITH recent AS (SELECT ${qualified('t', table.primaryKey)}, max(t.${cluster}) AS __keep FROM ${from} AS t WHERE ${inRange} GROUP BY ALL), ` +
    `twice AS (SELECT ${qualified('t', table.primaryKey)} FROM ${from} AS t SEMI JOIN recent AS r ON ${sameKey('t', 'r')} GROUP BY ALL HAVING count(*) > 1) ` +
    `SELECT ${qualified('t', table.columnNames)} FROM ${from} AS t JOIN recent AS r ON ${sameKey('t', 'r')} AND t.${cluster} = r.__keep ` +
    `SEMI JOIN twice AS w ON ${sameKey('t', 'w')} WHERE ${inRange})`
  );
}
