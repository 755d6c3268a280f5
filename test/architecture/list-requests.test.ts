/**
 * Where the v3 list requests are sent (issue 27): a position stream's page only through
 * src/extract/page-reader.ts, a snapshot stream's only through src/extract/snapshot-pager.ts, so
 * that runs, the dry-run and the unit tests read a page the same way. A call of `V3Api.list` or
 * `V3Api.listRead` anywhere else in src/ (outside the client itself) fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SITES = ['src/extract/page-reader.ts', 'src/extract/snapshot-pager.ts'];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** `file:line receiver.method(` for each call of a method named list or listRead on a receiver named like the v3 client. */
function listCalls(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ['list', 'listRead'].includes(node.expression.name.text)) {
      const receiver = node.expression.expression.getText(source);
      if (/api$/i.test(receiver)) found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${receiver}.${node.expression.name.text}(`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

it('sends list requests from the page reader and the snapshot pager only', () => {
  const files = sourceFiles(join(ROOT, 'src')).map((path) => relative(ROOT, path)).filter((file) => !file.startsWith('src/api/') && !file.startsWith('src/devnet/'));
  const calls = files.flatMap(listCalls);
  expect(calls.filter((call) => !SITES.some((site) => call.startsWith(`${site}:`)))).toEqual([]);
  // Each site still sends its requests (a site renamed away would leave this test checking nothing).
  expect(SITES.map((site) => calls.some((call) => call.startsWith(`${site}:`)))).toEqual([true, true]);
});
