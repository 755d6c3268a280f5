import { describe, expect, it } from 'vitest';
import { formatBytes, StorageError, storageErrorOf } from '../../src/load/storage-error.js';

const RERUN = '; then run the same command again: every committed page is kept and nothing half-written stays';

function errno(code: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: failed, write '${path}'`), { code, path });
}

describe('storageErrorOf', () => {
  it("reads DuckDB's text and Node's errno, also as a cause, naming the path", async () => {
    const duckdb = new Error('IO Error: Could not write file "/nowhere/wh/t/part-1.parquet.tmp": No space left on device');
    const fromDuckdb = await storageErrorOf(duckdb);
    expect(fromDuckdb).toBeInstanceOf(StorageError);
    expect(fromDuckdb).toMatchObject({ code: 'ENOSPC', path: '/nowhere/wh/t/part-1.parquet.tmp', exitCode: 1 });
    expect(fromDuckdb!.message).toMatch(/^the disk is full: writing \/nowhere\/wh\/t\/part-1\.parquet\.tmp failed with [\d.]+ (bytes|KB|MB|GB|TB) free on its file system, and the commit needed more: free some space or move sink\.path to a larger disk; then run/);
    const wrapped = new Error('run failed', { cause: errno('EROFS', '/mnt/ro/wh/_manifest.json.tmp') });
    expect((await storageErrorOf(wrapped))!.message).toBe(`the file system is read-only: cannot write /mnt/ro/wh/_manifest.json.tmp: remount it read-write or move sink.path${RERUN}`);
    expect((await storageErrorOf(errno('EACCES', '/srv/wh.duckdb')))!.message).toBe(`permission denied writing /srv/wh.duckdb: give this user write access to its folder or move sink.path${RERUN}`);
    const fatal = new Error('FATAL Error: Failed to create checkpoint because of error: Could not write file "/d/w.duckdb": Input/output error');
    expect(await storageErrorOf(fatal)).toMatchObject({ code: 'EIO', path: '/d/w.duckdb' });
  });

  it('leaves every other error alone', async () => {
    expect(await storageErrorOf(new Error('Binder Error: column "x" not found'))).toBeUndefined();
    expect(await storageErrorOf(errno('ECONNREFUSED', '/tmp/socket'))).toBeUndefined();
    expect(await storageErrorOf('text')).toBeUndefined();
  });
});

describe('formatBytes', () => {
  it('counts in powers of 1,024 with one decimal below ten', () => {
    expect([0, 1023, 1024, 1536, 10 * 1024, 5.5 * 1024 ** 2, 38 * 1024 ** 3].map(formatBytes)).toEqual(['0 bytes', '1023 bytes', '1.0 KB', '1.5 KB', '10 KB', '5.5 MB', '38 GB']);
  });
});

describe('storageErrorOf on a StorageError', () => {
  it('returns it as it is, not a second one wrapping it', async () => {
    const told = (await storageErrorOf(new Error('IO Error: Could not write file "/d/w.duckdb": No space left on device')))!;
    expect(await storageErrorOf(told)).toBe(told);
  });
});
