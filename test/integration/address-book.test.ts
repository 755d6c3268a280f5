/**
 * An address book whose user-friendly forms name other addresses, from the user's side: a proxy in
 * front of the devnet rotates the friendly forms of every `/transactions` book among its entries (and
 * spoils one's checksum). No entry is stored with a friendly form of another address: each is a
 * reject naming both, the transactions themselves load whole, and the run exits 0.
 */
import { describe, expect, it } from 'vitest';
import type { Devnet } from '../../src/devnet/index.js';
import { readAddress } from '../../src/transform/address.js';
import { addressesTable } from '../../src/transform/address-book.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult } from '../support/cli-result.js';
import { expectCoveredEqualsTruth } from '../support/expect-truth.js';
import type { MisbehavingServer } from '../support/misbehaving-server.js';
import { useProxiedDevnet } from '../support/proxied-devnet.js';
import { readWarehouse } from '../support/warehouse-snapshot.js';
import type { Workspace } from '../support/workspace.js';

type Book = Record<string, { user_friendly: string | null }>;

let work: Workspace;
let devnet: Devnet;
let proxy: MisbehavingServer;
useProxiedDevnet('address-book', { seed: 4040, blocks: 20 }, (setup) => ({ work, devnet, proxy } = setup));

/** Each entry gets the next entry's friendly form; the first's gets a wrong checksum. */
function rotate(book: Book): void {
  const entries = Object.values(book).filter((entry) => entry.user_friendly !== null);
  const forms = entries.map((entry) => entry.user_friendly!);
  entries.forEach((entry, index) => (entry.user_friendly = forms[(index + 1) % forms.length]!));
  if (entries.length > 0) entries[0]!.user_friendly = `${forms[1]!.slice(0, -2)}AA`;
}

describe('an address book with swapped friendly forms', () => {
  it('stores no friendly form of another address: each entry a reject naming both; the transactions load whole', async () => {
    proxy.behave((request) =>
      request.url.startsWith('/api/v3/transactions') ? { kind: 'proxy', change: (answer) => (rotate(answer['address_book'] as Book), answer) } : { kind: 'proxy' },
    );
    const sinkPath = work.sinkPath('duckdb', 'swapped');
    const pipeline = await work.pipeline({ url: proxy.url, kind: 'duckdb', sinkPath, streams: ['transactions'] });
    const result = await runCliInProcess(['sync', pipeline]);
    expect(result.code, describeResult(result)).toBe(0);
    const snapshot = await readWarehouse('duckdb', sinkPath, { glob: false, tables: [addressesTable] });
    const wrong = snapshot.tables.get('addresses')!.filter((row) => row['user_friendly'] !== null && !sameAddress(String(row['user_friendly']), String(row['address'])));
    expect(wrong).toEqual([]);
    const rejected = snapshot.rejectRows.filter((reject) => reject.reason.includes('user_friendly'));
    expect(rejected.length).toBeGreaterThan(100);
    for (const reject of rejected) {
      expect(reject.reason).toMatch(/^entry\.user_friendly: "[A-Za-z0-9_\-+/]{48}" (is the address -?\d+:[0-9A-F]{64}|is not an address \(its checksum or tag is wrong: copy the address again\)), not its key -?\d+:[0-9A-F]{64}$/);
    }
    expect(rejected.some((reject) => reject.reason.includes('checksum'))).toBe(true);
    await expectCoveredEqualsTruth(devnet, 'duckdb', sinkPath, { whole: true, streams: ['transactions'] });
  });
});

function sameAddress(friendly: string, raw: string): boolean {
  const reading = readAddress(friendly);
  return 'raw' in reading && reading.raw === raw;
}
