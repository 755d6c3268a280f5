import { existsSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Logger } from 'pino';
import { SCHEMA_VERSION } from '../core/bookkeeping.js';
import { migrateDuckDB } from './duckdb/migrate.js';
import { openDuckDBFile } from './engine/open.js';
import { migrationFrom } from './schema-migrations.js';
import type { SinkKind } from './open-sink.js';
import { migrateParquet } from './parquet/migrate.js';
import type { MigratedTables } from './schema-version.js';

/** What a migration did. */
export interface Migration {
  readonly from: number;
  readonly to: number;
  /** The tables written again under their new layout. */
  readonly tables: readonly string[];
  readonly seconds: number;
}

/**
 * Brings the warehouse at `path` to this build's schema version in place, without fetching anything
 * (docs/design.md §4): undefined when there is no warehouse there yet or it is current. A warehouse
 * newer than this build is refused (`SchemaVersionError`, exit 2). With a logger, a migration says
 * so in one warning: the columns an analyst's queries name have changed.
 */
export async function migrateWarehouse(kind: SinkKind, path: string, logger?: Logger): Promise<Migration | undefined> {
  const started = performance.now();
  return migrationDone(path, kind === 'duckdb' ? await migrateDuckDBFile(path) : await migrateParquet(path), started, logger);
}

/** `migrateWarehouse` of the DuckDB warehouse open on `connection` (a sink's open: one open of the file per run). */
export async function migrateOpenDuckDB(connection: DuckDBConnection, path: string, logger?: Logger): Promise<Migration | undefined> {
  const started = performance.now();
  return migrationDone(path, await migrateDuckDB(connection, path), started, logger);
}

/** What migrating since `started` did; undefined when nothing was migrated. */
function migrationDone(path: string, migrated: MigratedTables | undefined, started: number, logger: Logger | undefined): Migration | undefined {
  if (migrated === undefined) return undefined;
  const migration: Migration = { ...migrated, to: SCHEMA_VERSION, seconds: (performance.now() - started) / 1000 };
  logger?.warn({ path, ...migration }, `migrated the warehouse from schema version ${migration.from} to ${migration.to}: ${migrationFrom(migration.from)!.change}`);
  return migration;
}

async function migrateDuckDBFile(path: string): Promise<MigratedTables | undefined> {
  if (!existsSync(path)) return undefined;
  const instance = await openDuckDBFile(path);
  const connection = await instance.connect();
  try {
    return await migrateDuckDB(connection, path);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
