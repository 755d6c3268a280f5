/**
 * Where the v3 list requests are sent (issue 27): a position stream's page only through
 * src/extract/page-reader.ts, a snapshot stream's only through src/extract/snapshot-pager.ts, so
 * that runs, the dry-run and the unit tests read a page the same way. A call of `V3Api.list` or
 * `V3Api.listRead` anywhere else in src/ (outside the client itself) fails here.
 */
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, it } from 'vitest';
import { callsIn, sourceFiles } from './source-files.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SITES = ['src/extract/page-reader.ts', 'src/extract/snapshot-pager.ts'];

/** `file:line receiver.method(` for each call of a method named list or listRead on a receiver named like the v3 client. */
function listCalls(file: string): string[] {
  return callsIn(ROOT, file, (call, source) => {
    if (!ts.isPropertyAccessExpression(call.expression) || !['list', 'listRead'].includes(call.expression.name.text)) return undefined;
    const receiver = call.expression.expression.getText(source);
    return /api$/i.test(receiver) ? ` ${receiver}.${call.expression.name.text}(` : undefined;
  });
}

it('sends list requests from the page reader and the snapshot pager only', () => {
  const files = sourceFiles(join(ROOT, 'src')).map((path) => relative(ROOT, path)).filter((file) => !file.startsWith('src/api/') && !file.startsWith('src/devnet/'));
  const calls = files.flatMap(listCalls);
  expect(calls.filter((call) => !SITES.some((site) => call.startsWith(`${site}:`)))).toEqual([]);
  // Each site still sends its requests (a site renamed away would leave this test checking nothing).
  expect(SITES.map((site) => calls.some((call) => call.startsWith(`${site}:`)))).toEqual([true, true]);
});
