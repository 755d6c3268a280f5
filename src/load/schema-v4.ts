/**
 * Schema version 3 → 4: the lt columns that were declared `uint64` (DECIMAL(20,0) in Parquet) take
 * the lt kind of every other lt column (`logicalTime`: INT64 in Parquet), so that an lt has one type
 * in every table and a join or comparison across tables needs no cast. Values are unchanged (real lt
 * are below 2^47; the kind holds up to 2^63-1). The DuckDB type is UBIGINT in both kinds, so only
 * Parquet files are written again.
 */
import { jettonMastersTable } from '../streams/jetton-masters.js';
import { jettonWalletsTable } from '../streams/jetton-wallets.js';
import { nftCollectionsTable } from '../streams/nft-collections.js';
import { nftItemsTable } from '../streams/nft-items.js';
import { tracesTable } from '../streams/traces.js';
import type { ChangedTable } from './schema-v2.js';

/** The tables whose lt columns became `logicalTime` (traces' start_lt and end_lt, the snapshots' last_tx_lt). */
export const ltRetypedInVersion4: readonly ChangedTable[] = [tracesTable, jettonMastersTable, jettonWalletsTable, nftItemsTable, nftCollectionsTable].map(
  (table) => ({ table, parquetOnly: true }),
);
