/** What the architecture tests read: the TypeScript files under a folder, and the calls in one of them. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** Every `.ts` file under `folder`, as paths joined to it. */
export function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * `file:line` and what `describe` says of each call in `file` (a path from `root`) that it names;
 * `describe` returns undefined for the calls that do not count.
 */
export function callsIn(root: string, file: string, describe: (call: ts.CallExpression, source: ts.SourceFile) => string | undefined): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const what = ts.isCallExpression(node) ? describe(node, source) : undefined;
    if (what !== undefined) found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}${what}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
