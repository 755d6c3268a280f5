import type { DuckDBConnection } from '@duckdb/node-api';
import { quotedIdentifier } from '../../core/sql-quote.js';
import { SCHEMA_VERSION, SCHEMA_VERSION_KEY, etlMeta } from '../../core/bookkeeping.js';
import { commentsSql, createTableSql } from '../../core/ddl.js';
import { migrationFrom } from '../schema-migrations.js';
import { selectFromEarlier } from '../schema-v2.js';
import { schemaVersionError, type MigratedTables } from '../schema-version.js';

const previous = (table: string): string => quotedIdentifier(`__previous_${table}`);

/**
 * The stored schema version of the DuckDB warehouse on `connection`; undefined for a file no
 * chain-etl run has written yet.
 */
async function storedVersion(connection: DuckDBConnection): Promise<number | undefined> {
  const tables = await connection.runAndReadAll(
    "SELECT 1 FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main' AND table_name = $name",
    { name: etlMeta.name },
  );
  if (tables.currentRowCount === 0) return undefined;
  const value = (await connection.runAndReadAll(`SELECT value FROM ${quotedIdentifier(etlMeta.name)} WHERE key = $key`, { key: SCHEMA_VERSION_KEY })).getRows()[0]?.[0];
  return value === undefined || value === null ? undefined : Number(value);
}

/**
 * Brings a DuckDB warehouse of an earlier schema version to this build's layout in one transaction (a
 * kill before COMMIT leaves the earlier version whole): each changed table is rebuilt under its new
 * definition, so its columns stand in the order a fresh warehouse has (appends are positional), and
 * the version in `_etl_meta` changes with them. A table whose change was to its Parquet types only is
 * kept as it is. Returns the version it came from and the migrated tables; undefined when there was
 * nothing to do.
 */
export async function migrateDuckDB(connection: DuckDBConnection, path: string): Promise<MigratedTables | undefined> {
  const version = await storedVersion(connection);
  if (version === undefined || version === SCHEMA_VERSION) return undefined;
  const step = migrationFrom(version);
  if (step === undefined) throw schemaVersionError(path, version);
  const present = new Set(
    (await connection.runAndReadAll("SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main'"))
      .getRows()
      .map(([name]) => String(name)),
  );
  const migrated = step.tables.filter(({ table, parquetOnly = false }) => !parquetOnly && present.has(table.name));
  await connection.run('BEGIN TRANSACTION');
  try {
    for (const changed of migrated) {
      const name = quotedIdentifier(changed.table.name);
      await connection.run(`ALTER TABLE ${name} RENAME TO ${previous(changed.table.name)}`);
      await connection.run(`${createTableSql(changed.table)}\n${commentsSql(changed.table)}`);
      await connection.run(`INSERT INTO ${name} SELECT ${selectFromEarlier(changed)} FROM ${previous(changed.table.name)}`);
      await connection.run(`DROP TABLE ${previous(changed.table.name)}`);
    }
    await connection.run(`UPDATE ${quotedIdentifier(etlMeta.name)} SET value = $value WHERE key = $key`, {
      value: String(SCHEMA_VERSION),
      key: SCHEMA_VERSION_KEY,
    });
    await connection.run('COMMIT');
  } catch (err) {
    await connection.run('ROLLBACK').catch(() => undefined);
    throw err;
  }
  await connection.run('CHECKPOINT');
  return { from: version, tables: migrated.map(({ table }) => table.name) };
}
