/** A temp folder per test file holding pipeline files and warehouses (under SCRATCH_ROOT). */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { streams } from '../../src/streams/index.js';
import { SCRATCH_ROOT } from './scratch-root.js';
import { FIRST_MC } from './test-devnet.js';
import { KEY_ENV } from './test-key.js';

export type SinkKind = 'duckdb' | 'parquet';

export interface PipelineSpec {
  readonly url: string;
  readonly kind: SinkKind;
  /** Absolute sink path (DuckDB file or Parquet folder). */
  readonly sinkPath: string;
  /** @default { rps: 200, concurrency: 8 } */
  readonly rate?: { readonly rps: number; readonly concurrency: number };
  /** @default every stream of the registry */
  readonly streams?: readonly string[];
  /** File name in the workspace. @default `<kind>.yaml` */
  readonly name?: string;
  /** Parquet `sink.retain_superseded_minutes`. @default 0: superseded files go at once, so the raw glob equals the truth */
  readonly retainSupersededMinutes?: number;
}

export interface Workspace {
  readonly dir: string;
  /** Where a sink of this kind goes in the workspace, e.g. `<dir>/<label>.duckdb` or `<dir>/<label>-parquet`. */
  sinkPath(kind: SinkKind, label?: string): string;
  /** Writes a pipeline file into the workspace; returns its path. */
  pipeline(spec: PipelineSpec): Promise<string>;
  remove(): Promise<void>;
}

export async function makeWorkspace(prefix: string): Promise<Workspace> {
  const dir = await mkdtemp(join(SCRATCH_ROOT, `chain-etl-${prefix}-`));
  return {
    dir,
    sinkPath: (kind, label = 'warehouse') => join(dir, kind === 'duckdb' ? `${label}.duckdb` : `${label}-parquet`),
    pipeline: async (spec) => {
      const path = join(dir, spec.name ?? `${spec.kind}.yaml`);
      await writeFile(path, pipelineYaml(spec));
      return path;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

export function pipelineYaml(spec: PipelineSpec): string {
  const rate = spec.rate ?? { rps: 200, concurrency: 8 };
  const names = spec.streams ?? streams.map((s) => s.name);
  return [
    '# written by test/support/workspace.ts',
    'network: mainnet',
    `base_url: ${spec.url}`,
    `api_key_env: ${KEY_ENV}`,
    `rate: { rps: ${rate.rps}, concurrency: ${rate.concurrency} }`,
    `start: { mc_seqno: ${FIRST_MC} }`,
    'lag: { mc_blocks: 0 }',
    `streams: [${names.join(', ')}]`,
    `sink: { kind: ${spec.kind}, path: ${JSON.stringify(spec.sinkPath)}${spec.kind === 'parquet' ? `, retain_superseded_minutes: ${spec.retainSupersededMinutes ?? 0}` : ''} }`,
    '',
  ].join('\n');
}
