/**
 * Summarises a V8 `.cpuprofile` (written by `node --cpu-prof`): self time per function and per
 * origin (a package under node_modules, a folder of dist/, node internals, GC, idle).
 *
 *   node .bench-build/bench/cpu-profile.js FILE.cpuprofile [top=25]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}

interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface SelfTime {
  readonly name: string;
  readonly ms: number;
  /** Share of the busy (non-idle) time, %. */
  readonly share: number;
}

export interface ProfileSummary {
  readonly totalMs: number;
  readonly idleMs: number;
  readonly busyMs: number;
  readonly functions: readonly SelfTime[];
  readonly origins: readonly SelfTime[];
}

/** Where a frame's code lives: `zod`, `@duckdb/node-api`, `dist/load`, `node:internal`, `(garbage collector)`… */
export function originOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules !== null) return modules[1]!;
  const project = /\/(?:dist|\.bench-build\/src)\/([^/]+)\//.exec(url);
  if (project !== null) return `chain-etl ${project[1]}`;
  if (url.startsWith('node:')) return 'node internals';
  return url.replace(/^.*\//, '');
}

export function summariseProfile(file: string, top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const functions = new Map<string, number>();
  const origins = new Map<string, number>();
  let totalUs = 0;
  let idleUs = 0;
  profile.samples.forEach((id, index) => {
    const us = profile.timeDeltas[index] ?? 0;
    const frame = byId.get(id)!.callFrame;
    totalUs += us;
    if (frame.functionName === '(idle)') {
      idleUs += us;
      return;
    }
    const where = frame.url === '' ? '' : ` ${frame.url.replace(/^.*\/(node_modules|dist|src)\//, '$1/')}:${frame.lineNumber + 1}`;
    const name = `${frame.functionName || '(anonymous)'}${where}`;
    functions.set(name, (functions.get(name) ?? 0) + us);
    const origin = originOf(frame.url, frame.functionName);
    origins.set(origin, (origins.get(origin) ?? 0) + us);
  });
  const busyUs = totalUs - idleUs;
  const rank = (map: Map<string, number>, n: number): SelfTime[] =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => ({ name, ms: Math.round(us / 1000), share: Math.round((1000 * us) / busyUs) / 10 }));
  return {
    totalMs: Math.round(totalUs / 1000),
    idleMs: Math.round(idleUs / 1000),
    busyMs: Math.round(busyUs / 1000),
    functions: rank(functions, top),
    origins: rank(origins, 12),
  };
}

/** One line for the bench table: busy time, then the top origins and functions by share of it. */
export function profileLine(summary: ProfileSummary, top = 6): string {
  const shares = (entries: readonly SelfTime[]): string => entries.slice(0, top).map((entry) => `${entry.name.replace(/ \S*\/([^/]+:\d+)$/, ' $1')} ${entry.share.toFixed(1)} %`).join(', ');
  return `busy ${(summary.busyMs / 1000).toFixed(1)} s; by origin: ${shares(summary.origins)}; by function: ${shares(summary.functions)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const summary = summariseProfile(process.argv[2]!, Number(process.argv[3] ?? 25));
  console.log(`busy ${summary.busyMs} ms of ${summary.totalMs} ms (idle ${summary.idleMs} ms)`);
  for (const entry of summary.origins) console.log(`${String(entry.ms).padStart(7)} ms ${entry.share.toFixed(1).padStart(5)}%  ${entry.name}`);
  console.log('');
  for (const entry of summary.functions) console.log(`${String(entry.ms).padStart(7)} ms ${entry.share.toFixed(1).padStart(5)}%  ${entry.name}`);
}
