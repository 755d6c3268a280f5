/**
 * The layer rule of docs/design.md §8: a folder of src/ imports its own layer and the layers
 * below it, never one above it nor a peer; the devnet stands apart. Inside load/ the same rule
 * orders its parts: neither sink imports the other.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './source-files.js';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/** The folders of src/, lowest first. Folders on one line are peers: neither imports the other. */
const LAYERS: readonly (readonly string[])[] = [
  ['core'],
  ['api'],
  ['transform'],
  ['options', 'extract'],
  ['streams'],
  ['config', 'load'],
  ['run', 'report'],
  ['verify'],
  ['cli'],
];

/**
 * The local API server: a program of its own that shares only core's values and transform's pure
 * helpers (the one address reader) with the pipeline; only cli starts it.
 */
const APART: Readonly<Record<string, { readonly imports: readonly string[]; readonly importedBy: readonly string[] }>> = {
  devnet: { imports: ['core', 'transform'], importedBy: ['cli'] },
};

/**
 * The devnet's own layers, lowest first (folders and the files at its root): natively hashed cells
 * (cell-hash*.ts, which the chain's message bodies are written with); the generated chain and
 * the HTTP plumbing; the chain's wire forms (render) and what a request may see (view); the routes
 * (api); the truth datasets; the program.
 */
const DEVNET_LAYERS: readonly (readonly string[])[] = [
  ['cell-hash.ts'],
  ['cell-hash-dict.ts', 'cell-hash-message.ts'],
  ['chain', 'http', 'defaults.ts'],
  ['render', 'view.ts'],
  ['api'],
  ['truth.ts'],
  ['index.ts'],
];

/**
 * The parts of load/, lowest first: the sinks' contract and commit plan (the files at its root); the
 * embedded DuckDB both sinks write through (engine/); the two sinks, peers; the files at its root
 * that choose a sink by its kind (LOAD_FRONT).
 */
const LOAD_LAYERS: readonly (readonly string[])[] = [['shared'], ['engine'], ['duckdb', 'parquet'], ['front']];
const LOAD_FRONT: readonly string[] = ['open-sink.ts', 'migrate.ts', 'read-only-warehouse.ts'];

/** `from -> to`, both as paths from the repository root. */
type Edge = string;

/** Every relative import of each file (static, `export … from`, `import()`, type-only), as edges. */
function importEdges(files: ReadonlyMap<string, string>): Edge[] {
  const edges: Edge[] = [];
  for (const [file, text] of files) {
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = join(dirname(file), fileName).replace(/\.js$/, '.ts');
      edges.push(`${file} -> ${target}`);
    }
  }
  return edges;
}

/** The layer folder of a path under src/, e.g. `src/run/plan.ts` → `run`. */
function folderOf(path: string): string {
  return path.split('/')[1] ?? '';
}

/** The devnet layer of a path under src/devnet/ (a folder or a file at its root), e.g. `render`. */
function devnetPartOf(path: string): string {
  return path.split('/')[2] ?? '';
}

/** The load/ part of a path under src/load/: its folder, or `front`/`shared` for a file at its root. */
function loadPartOf(path: string): string {
  const [, , part = '', inFolder] = path.split('/');
  if (inFolder !== undefined) return part;
  return LOAD_FRONT.includes(part) ? 'front' : 'shared';
}

/** Why a part may not import another of the layers, or undefined when it may. */
function rankRefusal(layers: readonly (readonly string[])[], from: string, to: string): string | undefined {
  if (from === to) return undefined;
  const rank = (part: string): number => layers.findIndex((layer) => layer.includes(part));
  if (rank(to) < rank(from)) return undefined;
  return rank(to) === rank(from) ? `${from} and ${to} are peers` : `${to} is a layer above ${from}`;
}

/** Why `from` may not import `to`, or undefined when it may. */
function refusal(from: string, to: string): string | undefined {
  if (from === to) return undefined;
  const apartFrom = APART[from];
  if (apartFrom !== undefined) return apartFrom.imports.includes(to) ? undefined : `${from} stands apart and imports ${apartFrom.imports.join(', ')} only`;
  const apartTo = APART[to];
  if (apartTo !== undefined) return apartTo.importedBy.includes(from) ? undefined : `${to} stands apart: only ${apartTo.importedBy.join(', ')} imports it`;
  return rankRefusal(LAYERS, from, to);
}

/** The imports that break the layer rule, each as `edge: reason`. */
function violations(edges: readonly Edge[]): string[] {
  return edges.flatMap((edge) => {
    const [from, to] = edge.split(' -> ') as [string, string];
    const reason = refusal(folderOf(from), folderOf(to));
    return reason === undefined ? [] : [`${edge}: ${reason}`];
  });
}

/** The imports inside the devnet that break its layers, each as `edge: reason`. */
function devnetViolations(edges: readonly Edge[]): string[] {
  return edges.flatMap((edge) => {
    const [from, to] = edge.split(' -> ') as [string, string];
    if (!from.startsWith('src/devnet/') || !to.startsWith('src/devnet/')) return [];
    const reason = rankRefusal(DEVNET_LAYERS, devnetPartOf(from), devnetPartOf(to));
    return reason === undefined ? [] : [`${edge}: devnet's ${reason}`];
  });
}

/** The imports inside load/ that break its parts' order, each as `edge: reason`. */
function loadViolations(edges: readonly Edge[]): string[] {
  return edges.flatMap((edge) => {
    const [from, to] = edge.split(' -> ') as [string, string];
    if (!from.startsWith('src/load/') || !to.startsWith('src/load/')) return [];
    const reason = rankRefusal(LOAD_LAYERS, loadPartOf(from), loadPartOf(to));
    return reason === undefined ? [] : [`${edge}: load's ${reason}`];
  });
}

describe('layer rule', () => {
  const files = new Map(sourceFiles(SRC).map((path) => [relative(resolve(SRC, '..'), path), readFileSync(path, 'utf8')]));
  const edges = importEdges(files);

  it('gives every folder of src/ a layer', () => {
    const placed = [...LAYERS.flat(), ...Object.keys(APART)];
    const folders = new Set([...files.keys()].map(folderOf));
    expect([...folders].filter((folder) => !placed.includes(folder)).map((folder) => `src/${folder} has no layer: place it in LAYERS`)).toEqual([]);
  });

  it('finds no import of a higher layer or of a peer, and keeps the devnet apart', () => {
    expect(violations(edges)).toEqual([]);
  });

  it('gives every part of the devnet a layer, and finds no import of a higher one or of a peer', () => {
    const parts = new Set([...files.keys()].filter((path) => path.startsWith('src/devnet/')).map(devnetPartOf));
    expect([...parts].filter((part) => !DEVNET_LAYERS.flat().includes(part)).map((part) => `src/devnet/${part} has no layer: place it in DEVNET_LAYERS`)).toEqual([]);
    expect(devnetViolations(edges)).toEqual([]);
  });

  it('gives every part of load/ a place, and finds no sink importing the other or a shared file importing a sink', () => {
    const parts = new Set([...files.keys()].filter((path) => path.startsWith('src/load/')).map(loadPartOf));
    expect([...parts].filter((part) => !LOAD_LAYERS.flat().includes(part)).map((part) => `src/load/${part} has no place: put it in LOAD_LAYERS`)).toEqual([]);
    expect(loadViolations(edges)).toEqual([]);
  });

  it('names the load/ import that crosses between the sinks or runs back up', () => {
    const sample = new Map([
      ['src/load/parquet/a.ts', "import { b } from '../duckdb/b.js';\nimport { c } from '../engine/c.js';\nimport { d } from '../sink.js';"],
      ['src/load/commit-plan.ts', "import { e } from './parquet/e.js';\nimport { f } from './open-sink.js';"],
      ['src/load/open-sink.ts', "import { g } from './duckdb/g.js';"],
    ]);
    expect(loadViolations(importEdges(sample))).toEqual([
      "src/load/parquet/a.ts -> src/load/duckdb/b.ts: load's parquet and duckdb are peers",
      "src/load/commit-plan.ts -> src/load/parquet/e.ts: load's parquet is a layer above shared",
      "src/load/commit-plan.ts -> src/load/open-sink.ts: load's front is a layer above shared",
    ]);
  });

  it('names the devnet import that runs back up a layer', () => {
    const sample = new Map([
      ['src/devnet/render/a.ts', "import { b } from '../api/v2/b.js';\nimport { c } from '../chain/c.js';\nimport { d } from '../view.js';"],
      ['src/devnet/chain/e.ts', "import { f } from '../http/f.js';\nimport { g } from '../../core/g.js';"],
      ['src/devnet/api/v3/h.ts', "import { i } from '../../render/i.js';\nimport { j } from '../../index.js';"],
    ]);
    expect(devnetViolations(importEdges(sample))).toEqual([
      "src/devnet/render/a.ts -> src/devnet/api/v2/b.ts: devnet's api is a layer above render",
      "src/devnet/render/a.ts -> src/devnet/view.ts: devnet's render and view.ts are peers",
      "src/devnet/chain/e.ts -> src/devnet/http/f.ts: devnet's chain and http are peers",
      "src/devnet/api/v3/h.ts -> src/devnet/index.ts: devnet's index.ts is a layer above api",
    ]);
  });

  it('reads every kind of import and names the file, the import and the reason of each refused one', () => {
    const sample = new Map([
      ['src/core/a.ts', "import type { B } from '../run/b.js';\nexport { C } from '../load/c.js';\nconst d = await import('../api/d.js');"],
      ['src/extract/e.ts', "import { f } from '../options/f.js';\nimport { g } from '../core/g.js';\nimport PQueue from 'p-queue';"],
      ['src/devnet/h.ts', "import { i } from '../api/i.js';\nimport { j } from '../core/j.js';\nimport { n } from '../transform/n.js';"],
      ['src/run/k.ts', "import { l } from '../devnet/l.js';\nimport { m } from '../cli/m.js';"],
    ]);
    expect(violations(importEdges(sample))).toEqual([
      'src/core/a.ts -> src/run/b.ts: run is a layer above core',
      'src/core/a.ts -> src/load/c.ts: load is a layer above core',
      'src/core/a.ts -> src/api/d.ts: api is a layer above core',
      'src/extract/e.ts -> src/options/f.ts: extract and options are peers',
      'src/devnet/h.ts -> src/api/i.ts: devnet stands apart and imports core, transform only',
      'src/run/k.ts -> src/devnet/l.ts: devnet stands apart: only cli imports it',
      'src/run/k.ts -> src/cli/m.ts: cli is a layer above run',
    ]);
  });
});
