import type { z } from 'zod';
import { ConfigError } from '../core/errors.js';
import type { DataPath, YamlSource } from './yaml-source.js';

/** `streams.transactions.accounts[1]` */
export function pathLabel(path: DataPath): string {
  return path
    .map((segment, i) => (typeof segment === 'number' ? `[${segment}]` : `${i === 0 ? '' : '.'}${String(segment)}`))
    .join('');
}

/**
 * The first problem in file order as one line: `file:line:col: path: expected …, got …: fix`.
 * Unknown keys read `file:line:col: unknown key "x": did you mean "y"? (keys: …)`. Missing keys
 * come last, because a misspelt key (reported at its own place) is usually why one is missing.
 * Expects issues parsed with `reportInput: true`.
 */
export function issuesToError(issues: readonly z.core.$ZodIssue[], source: YamlSource): ConfigError {
  const located = issues.map((issue) => {
    const unknownKey = issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
    const { line, col } = source.locate(issue.path, unknownKey);
    const label = unknownKey !== undefined || issue.path.length === 0 ? '' : `${pathLabel(issue.path)}: `;
    const missing = 'input' in issue && issue.input === undefined;
    return { missing, line, col, message: `${source.file}:${line}:${col}: ${label}${issue.message}` };
  });
  located.sort((a, b) => Number(a.missing) - Number(b.missing) || a.line - b.line || a.col - b.col);
  return new ConfigError(located[0]?.message ?? `${source.file}: invalid pipeline file`);
}
