/**
 * A snapshot stream's line of `sync --dry-run`: not due yet, or what its snapshot costs. The service
 * has no count, so one probe page tells: a short page is the whole scope (1 request); a full one
 * means more than a page, ⌈rows / 999⌉ requests (pages overlap by one item).
 */
import type { V3Api } from '../api/v3.js';
import type { SnapshotDefinition } from '../core/stream.js';
import type { Plan } from '../run/plan.js';

export interface SnapshotCost {
  readonly line: string;
  /** Requests at least. */
  readonly requests: number;
}

const PAGE_LIMIT = 1000;

export async function snapshotCost(stream: SnapshotDefinition, plan: Plan, api: V3Api, signal: AbortSignal): Promise<SnapshotCost> {
  const name = stream.name.padEnd(20);
  const skipped = plan.skipped?.find((s) => s.stream === stream.name);
  if (skipped !== undefined) return { line: `${name} snapshot not due until ${utc(skipped.due)} (refresh)`, requests: 0 };
  const job = plan.snapshots?.find((j) => j.stream.name === stream.name);
  if (job === undefined) return { line: `${name} nothing to fetch`, requests: 0 };
  const page = await api.list(stream.endpoint, stream.itemsKey, stream.query(job.filters, { limit: PAGE_LIMIT, offset: 0, signal }), { metadata: false, signal });
  const rows = (page[stream.itemsKey] ?? []).length;
  return rows < PAGE_LIMIT
    ? { line: `${name} ${`snapshot of ${rows} rows`.padEnd(93)} ${'1'.padStart(10)}`, requests: 1 }
    : { line: `${name} snapshot of more than ${PAGE_LIMIT} rows: ⌈rows / 999⌉ requests, at least 2`, requests: 2 };
}

function utc(utime: number): string {
  return `${new Date(utime * 1000).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
