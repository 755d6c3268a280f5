/**
 * A snapshot stream's line of `sync --dry-run`: not due yet, or what its snapshot costs. The service
 * has no count, so one probe page tells: a short page is the whole scope (1 request); a full one
 * means more than a page, ⌈rows / 999⌉ requests (pages overlap by one item). A stream that reads by
 * key what the run's other streams name (jetton_masters) says so on a second line.
 */
import type { V3Api } from '../api/v3.js';
import type { SnapshotDefinition } from '../core/stream.js';
import type { Plan } from '../run/plan.js';
import { DEFAULT_PAGE_LIMIT } from '../run/runner.js';
import { keyBatches } from '../run/snapshot-by-key.js';
import { utcTime } from '../core/utc-time.js';
import { readSnapshotPage } from '../extract/snapshot-pager.js';

export interface SnapshotCost {
  readonly line: string;
  /** Requests at least. */
  readonly requests: number;
}

export async function snapshotCost(stream: SnapshotDefinition, plan: Plan, api: V3Api, signal: AbortSignal): Promise<SnapshotCost> {
  const cost = await scopeCost(stream, plan, api, signal);
  const keyed = plan.keyed?.find((read) => read.stream.name === stream.name);
  if (keyed === undefined) return cost;
  const naming = keyed.namedBy.map((column) => column.table).join(' and ');
  const perRequest = keyBatches(Array<string>(DEFAULT_PAGE_LIMIT).fill(A_RAW_ADDRESS), stream.byKey!.param, DEFAULT_PAGE_LIMIT)[0]!.length;
  return { ...cost, line: `${cost.line}\n${''.padEnd(20)} + by address, what ${naming} name outside its scope and it lacks: up to ${perRequest} a request (not counted: known once they are fetched)` };
}

/** A basechain address in raw form, as long as every key a stream reads by key. */
const A_RAW_ADDRESS = `0:${'0'.repeat(64)}`;

async function scopeCost(stream: SnapshotDefinition, plan: Plan, api: V3Api, signal: AbortSignal): Promise<SnapshotCost> {
  const name = stream.name.padEnd(20);
  const skipped = plan.skipped?.find((s) => s.stream === stream.name);
  if (skipped !== undefined) return { line: `${name} snapshot not due until ${utcTime(skipped.due)} (refresh)`, requests: 0 };
  const job = plan.snapshots?.find((j) => j.stream.name === stream.name);
  if (job === undefined) return { line: `${name} nothing to fetch`, requests: 0 };
  const rows = (await readSnapshotPage(stream, api, stream.query(job.filters, { limit: DEFAULT_PAGE_LIMIT, offset: 0, signal }), { time: job.time, offset: 0, signal })).received;
  return rows < DEFAULT_PAGE_LIMIT
    ? { line: `${name} ${`snapshot of ${rows} rows`.padEnd(93)} ${'1'.padStart(10)}`, requests: 1 }
    : { line: `${name} snapshot of more than ${DEFAULT_PAGE_LIMIT} rows: ⌈rows / 999⌉ requests, at least 2`, requests: 2 };
}
