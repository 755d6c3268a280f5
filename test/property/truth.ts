/**
 * A generated truth: a small devnet chain (its masterchain blocks and the items the devnet renders)
 * made dense with clones of its items at chosen positions, so that pages fill up, positions hold
 * ties (some larger than a page) and every page edge is exercised with a few thousand items at most.
 */
import { buildDevnetApi } from '../../src/devnet/index.js';
import type { DevnetApi } from '../../src/devnet/api/context.js';
import type { Generator } from '../../src/devnet/chain/generator.js';
import { truthRows } from '../../src/devnet/truth.js';
import { parseItems } from '../../src/api/wire.js';
import type { StreamDefinition } from '../../src/core/stream.js';
import type { Row } from '../../src/core/table.js';
import { streams } from '../../src/streams/index.js';
import { seededRandom } from '../support/seeded-random.js';

/** The four streams; each is also the name of its devnet truth dataset. */
export type StreamName = 'transactions' | 'actions' | 'jetton_transfers' | 'validator_events';
export const STREAM_NAMES: readonly StreamName[] = ['transactions', 'actions', 'jetton_transfers', 'validator_events'];

/** Extra items of one stream: `count` clones spread over positions holding `tie` items each. */
export interface Density {
  readonly count: number;
  readonly tie: number;
}

export interface TruthSpec {
  readonly seed: number;
  /** Masterchain blocks of the devnet chain. */
  readonly blocks: number;
  readonly density: Readonly<Partial<Record<StreamName, Density>>>;
  /** Masterchain blocks between a trace's completion and its actions' visibility. @default 0 */
  readonly classifyDelay?: number;
}

/** One item of the truth: as served, with its position and the rows the stream makes of it. */
export interface TruthItem {
  readonly raw: Record<string, unknown>;
  readonly position: bigint;
  readonly key: string;
  /** The order the service promises among items sharing a position (empty: none, ties come in any order). */
  readonly tieOrder: string;
  readonly rows: ReadonlyMap<string, readonly Row[]>;
}

export interface Truth {
  readonly spec: TruthSpec;
  /** The streams whose items it holds (the others are never requested). */
  readonly streams: readonly StreamName[];
  readonly api: DevnetApi & { readonly generator: Generator };
  /** Items per stream in the service's order (position, then `tieOrder`); `refreshTruth` renews them. */
  readonly items: Map<StreamName, readonly TruthItem[]>;
  /** The extra items of each stream, kept across refreshes. */
  readonly clones: ReadonlyMap<StreamName, readonly Record<string, unknown>[]>;
}

export function streamNamed(name: StreamName): StreamDefinition {
  const stream = streams.find((s) => s.name === name);
  if (stream === undefined) throw new Error(`no stream ${name}`);
  return stream;
}

/** The truth of `streams`: a stream's clones depend only on the spec, whichever others are built. */
export function buildTruth(spec: TruthSpec, streams: readonly StreamName[] = STREAM_NAMES): Truth {
  const api = buildDevnetApi({ seed: spec.seed, blocks: spec.blocks, classifyDelay: spec.classifyDelay ?? 0 });
  const random = seededRandom(spec.seed ^ 0x5eed);
  const clones = new Map<StreamName, Record<string, unknown>[]>();
  let serial = 0;
  const nextSerial = (): number => ++serial;
  for (const name of STREAM_NAMES.filter((stream) => streams.includes(stream))) {
    const rendered = truthRows(api, name);
    const density = spec.density[name];
    clones.set(name, density === undefined || rendered.length === 0 ? [] : cloneItems(name, rendered, density, { from: positionOf(api, name, 0), to: tipPositionOf(api, name, api.view.indexedStep) }, random, nextSerial));
  }
  const truth: Truth = { spec, streams, api, items: new Map(), clones };
  refreshTruth(truth);
  return truth;
}

/** Renders the items again from the chain as it is now (grown, re-classified), clones included. */
export function refreshTruth(truth: Truth): void {
  for (const name of truth.streams) truth.items.set(name, toTruthItems(name, [...truthRows(truth.api, name), ...(truth.clones.get(name) ?? [])]));
}

function toTruthItems(name: StreamName, raw: readonly Record<string, unknown>[]): TruthItem[] {
  const stream = streamNamed(name);
  const { ok, rejects } = parseItems(stream.item, raw);
  if (rejects.length > 0) throw new Error(`${name}: a truth item does not parse: ${rejects[0]!.reason}`);
  const items = ok.map((item, index) => ({
    raw: raw[index]!,
    position: stream.position(item),
    key: stream.key(item),
    tieOrder: tieOrderOf(name, raw[index]!),
    rows: stream.toRows(item),
  }));
  return items.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.tieOrder < b.tieOrder ? -1 : a.tieOrder > b.tieOrder ? 1 : 0));
}

/**
 * Transactions: `lt, account`; actions: `trace_end_lt, trace_id, end_lt, action_id`; the others:
 * none (docs/design.md §2).
 */
function tieOrderOf(name: StreamName, raw: Record<string, unknown>): string {
  if (name === 'transactions') return String(raw.account);
  if (name === 'actions') return `${String(raw.trace_id)}|${String(raw.end_lt).padStart(20, '0')}|${String(raw.action_id)}`;
  return '';
}

function cloneItems(name: StreamName, templates: readonly Record<string, unknown>[], density: Density, bounds: { from: bigint; to: bigint }, random: () => number, nextSerial: () => number): Record<string, unknown>[] {
  const clones: Record<string, unknown>[] = [];
  const span = Number(bounds.to - bounds.from);
  for (let made = 0; made < density.count; ) {
    const position = bounds.from + BigInt(Math.floor(random() * (span + 1)));
    for (let i = 0; i < density.tie && made < density.count; i++, made++) {
      const template = templates[Math.floor(random() * templates.length)]!;
      clones.push(cloneAt(name, template, position, nextSerial()));
    }
  }
  return clones;
}

/**
 * A copy of `template` at `position` with a new identity (hash, account, ids) derived from `serial`.
 * Nested values stay shared with the template: nothing changes a truth item in place.
 */
function cloneAt(name: StreamName, template: Record<string, unknown>, position: bigint, serial: number): Record<string, unknown> {
  const copy = { ...template };
  const hash = hashOf(name, serial);
  switch (name) {
    case 'transactions':
      // Its account's only transaction, so it names no previous one: the chain's links hold with clones too.
      return { ...copy, hash, lt: String(position), account: `0:${serial.toString(16).toUpperCase().padStart(64, 'A')}`, prev_trans_hash: NO_HASH, prev_trans_lt: '0' };
    case 'actions':
      return { ...copy, action_id: hash, trace_id: hashOf('trace', serial), trace_end_lt: String(position), end_lt: String(position), start_lt: String(position) };
    case 'jetton_transfers':
      return { ...copy, transaction_hash: hash, transaction_lt: String(position) };
    case 'validator_events':
      return { ...copy, tx_hash: hash, utime: Number(position) };
  }
}

/**
 * `item` as the service may list it before its key moves to its true position: the same key at the
 * earlier `position` (an action whose trace had not grown yet, a transaction listed under a stale lt),
 * with the rows the stream makes of that answer.
 */
export function staleCopy(name: StreamName, item: TruthItem, position: bigint): TruthItem {
  const raw = { ...item.raw };
  switch (name) {
    case 'transactions':
      raw.lt = String(position);
      break;
    case 'actions': {
      const earlier = (value: unknown): string => String(BigInt(String(value)) < position ? BigInt(String(value)) : position);
      Object.assign(raw, { trace_end_lt: String(position), end_lt: earlier(raw.end_lt), start_lt: earlier(raw.start_lt) });
      break;
    }
    case 'jetton_transfers':
      raw.transaction_lt = String(position);
      break;
    case 'validator_events':
      raw.utime = Number(position);
      break;
  }
  return toTruthItems(name, [raw])[0]!;
}

/** The hash an account's first transaction names as its previous one. */
const NO_HASH = Buffer.alloc(32).toString('base64');

function hashOf(label: string, serial: number): string {
  const bytes = Buffer.alloc(32);
  bytes.write(label.slice(0, 20), 'latin1');
  bytes.writeUInt32BE(serial, 28);
  return bytes.toString('base64');
}

/** Where masterchain block `step` begins on a stream's axis. */
export function positionOf(api: DevnetApi, name: StreamName, step: number): bigint {
  const block = api.view.chain.mcBlock(step);
  return streamNamed(name).axis === 'lt' ? BigInt(block.startLt) : BigInt(block.genUtime);
}

/** The last position a run settled at block `step` covers on a stream's axis. */
export function tipPositionOf(api: DevnetApi, name: StreamName, step: number): bigint {
  const block = api.view.chain.mcBlock(step);
  return streamNamed(name).axis === 'lt' ? BigInt(block.endLt) : BigInt(block.genUtime) - 1n;
}
