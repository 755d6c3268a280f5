import type { DuckDBConnection } from '@duckdb/node-api';
import { quotedString } from '../../core/sql-quote.js';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { SCHEMA_VERSION } from '../../core/bookkeeping.js';
import { fsyncPath } from '../durable-fs.js';
import { removeLeftovers } from './cleanup.js';
import { damagedFiles } from './integrity.js';
import { dataFilePath } from './layout.js';
import { writeDataFile } from './file.js';
import { lockWarehouse } from './lock.js';
import { MANIFEST_FILE, PARQUET_TYPES, manifestColumns, readManifest, writeManifest, type Manifest, type ManifestFile } from './manifest.js';
import { migrationFrom } from '../schema-migrations.js';
import { selectFromEarlier, type ChangedTable } from '../schema-v2.js';
import { schemaVersionError, type MigratedTables } from '../schema-version.js';

/** The rows of a file and its size, once written. */
interface Written {
  readonly rows: number;
  readonly bytes: number;
}

/**
 * Brings a Parquet warehouse of an earlier schema version to this build's layout under the writer lock: every
 * listed file of a changed table is written again in the new layout (new files of the next
 * generation: temp name, fsync, rename), then one manifest swap publishes them with the new version
 * and retires the old files (deleted by a later commit after the grace period, §4). A kill before the
 * swap leaves the earlier version whole and files of the next generation, which the next attempt
 * deletes first, as the sink's open would. Damaged files stay listed as they are, for `repair` to set
 * aside. Returns the version it came from and the migrated tables; undefined when there was nothing to do.
 */
export async function migrateParquet(path: string): Promise<MigratedTables | undefined> {
  const root = resolve(path);
  // Without a manifest there is nothing to migrate; the sink's open says what else is wrong, if anything.
  if (!existsSync(join(root, MANIFEST_FILE))) return undefined;
  const unlocked = await readManifest(root);
  if (unlocked === undefined || unlocked.schemaVersion === SCHEMA_VERSION) return undefined;
  const lock = await lockWarehouse(root);
  const connection = await lock.connect();
  try {
    const manifest = await readManifest(root);
    if (manifest === undefined || manifest.schemaVersion === SCHEMA_VERSION) return undefined;
    const step = migrationFrom(manifest.schemaVersion);
    if (step === undefined) throw schemaVersionError(root, manifest.schemaVersion);
    await removeLeftovers(root, manifest, Object.keys(manifest.tables));
    const next = await rewriteChangedTables(connection, root, manifest, step.tables);
    await writeManifest(root, next);
    return { from: manifest.schemaVersion, tables: step.tables.filter(({ table }) => manifest.tables[table.name] !== undefined).map(({ table }) => table.name) };
  } finally {
    connection.closeSync();
    lock.closeSync();
  }
}

/** Writes the new files and returns the manifest that lists them instead of the old ones. */
async function rewriteChangedTables(connection: DuckDBConnection, root: string, manifest: Manifest, changedTables: readonly ChangedTable[]): Promise<Manifest> {
  const generation = manifest.generation + 1;
  const damaged = new Set((await damagedFiles(root, manifest)).map((file) => file.path));
  const now = Math.floor(Date.now() / 1000);
  const tables = { ...manifest.tables };
  const retired = [...manifest.retired];
  const folders = new Set<string>();
  let sequence = 0;
  for (const changed of changedTables) {
    const entry = manifest.tables[changed.table.name];
    if (entry === undefined) continue;
    const files: ManifestFile[] = [];
    for (const file of entry.files) {
      if (damaged.has(file.path)) {
        files.push(file);
        continue;
      }
      const path = dataFilePath(changed.table.name, file.date, generation, sequence++);
      const { rows, bytes } = await copyChanged(connection, changed, join(root, file.path), join(root, path));
      if (rows > 0) files.push({ ...file, path, rows, bytes });
      retired.push({ path: file.path, retiredAt: now });
      folders.add(dirname(join(root, path)));
    }
    tables[changed.table.name] = { columns: manifestColumns(changed.table), files, parquetTypes: PARQUET_TYPES };
  }
  for (const folder of folders) await fsyncPath(folder);
  return { ...manifest, schemaVersion: SCHEMA_VERSION, generation, tables, retired };
}

/** Writes `source`'s rows in the new layout to `target`, as the sink writes a file. */
function copyChanged(connection: DuckDBConnection, changed: ChangedTable, source: string, target: string): Promise<{ rows: number; bytes: number }> {
  return writeDataFile(connection, changed.table, `SELECT ${selectFromEarlier(changed)} FROM read_parquet(${quotedString(source)}, hive_partitioning = false)`, target);
}
