/**
 * kill -9 in the middle of `chain-etl migrate`, both sinks (moved here from
 * test/integration/migrate.test.ts, which keeps the migration's other cases in `npm test`): the
 * previous release's warehouse stays whole, and the next migrate gives what an uninterrupted one gives.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';
import { expectKilledMigrationRecovers } from '../integration/previous-release.js';

describe.each<SinkKind>(['duckdb', 'parquet'])('kill -9 during the migration of a %s warehouse', (kind) => {
  let work: Workspace;

  beforeAll(async () => {
    work = await makeWorkspace(`migrate-kill-${kind}`);
  });

  afterAll(async () => {
    await work?.remove();
  });

  it('leaves the previous release\'s warehouse whole; the next migrate gives what an uninterrupted one gives', async () => {
    await expectKilledMigrationRecovers(work, kind);
  }, 240_000);
});
