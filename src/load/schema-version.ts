import { SCHEMA_VERSION } from '../core/bookkeeping.js';
import { SchemaVersionError } from '../core/schema-errors.js';

/** What a sink's migration did: the version it came from and the tables it wrote again. */
export interface MigratedTables {
  readonly from: number;
  readonly tables: readonly string[];
}

/**
 * The refusal of a warehouse of another schema version: an older one names the way to migrate it, a
 * newer one the release to use.
 */
export function schemaVersionError(path: string, found: number): SchemaVersionError {
  if (found < SCHEMA_VERSION) {
    return new SchemaVersionError(
      `Warehouse ${path} has schema version ${found}, this chain-etl reads version ${SCHEMA_VERSION}: ` +
        'run chain-etl migrate with this pipeline (or its next sync or backfill) to migrate it in place',
    );
  }
  return new SchemaVersionError(
    `Warehouse ${path} has schema version ${found}, newer than this chain-etl (version ${SCHEMA_VERSION}): ` +
      'upgrade chain-etl to the release that wrote it or a later one',
  );
}
