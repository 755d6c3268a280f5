/**
 * kill -9 in the middle of `chain-etl migrate` (moved here from test/integration/migrate.test.ts,
 * which keeps the migration's other cases in `npm test`): the earlier release's warehouse stays
 * whole, and the next migrate gives what an uninterrupted one gives. Both sinks from schema version 1;
 * Parquet also from version 3 (its traces files written again; a DuckDB warehouse of version 3 only
 * has its version row changed, in one transaction).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';
import { expectKilledMigrationRecovers, type Fixture } from '../integration/previous-release.js';

describe.each<[SinkKind, Fixture]>([
  ['duckdb', 'previous-release'],
  ['parquet', 'previous-release'],
  ['parquet', 'schema-v3'],
])('kill -9 during the migration of a %s warehouse (%s)', (kind, fixture) => {
  let work: Workspace;

  beforeAll(async () => {
    work = await makeWorkspace(`migrate-kill-${kind}`);
  });

  afterAll(async () => {
    await work?.remove();
  });

  it('leaves the earlier release\'s warehouse whole; the next migrate gives what an uninterrupted one gives', async () => {
    await expectKilledMigrationRecovers(work, kind, fixture);
  }, 240_000);
});
