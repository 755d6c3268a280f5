/**
 * A snapshot stream's read by key (docs/design.md §2): the keys other streams' committed rows name
 * (jetton_masters: the `jetton_master` of every stored transfer and burn) that the stream's table
 * lacks are asked for by key, whatever the stream's filters, after the run's other streams have
 * committed. When the run takes the stream's snapshot, the keys it did not list are read into it
 * and only then is it completed, so a complete snapshot holds its scope and every named key the
 * service lists, and deletes the rest; when the snapshot is not due, the keys its table lacks join
 * its last complete snapshot (stamped with its time), so the next one reads them again like the rest.
 */
import type { NamingColumn, SnapshotDefinition } from '../core/stream.js';
import type { SnapshotRecord } from '../core/checkpoint/snapshot-record.js';
import { MAX_QUERY_BYTES } from '../api/url-limit.js';
import { snapshotPage } from '../api/v3.js';
import { readSnapshotPage } from '../extract/snapshot-pager.js';
import { PagingContractError } from '../extract/page-check.js';
import type { Sink } from '../load/sink.js';
import { commitSnapshotPage, completeSnapshot, type SnapshotCounts, type SnapshotJob, type SnapshotRunContext } from './snapshot-job.js';

/** One snapshot stream's read by key in a run. */
export interface KeyedRead {
  readonly stream: SnapshotDefinition;
  /** The columns of the run's tables that name its keys. */
  readonly namedBy: readonly NamingColumn[];
  readonly record: SnapshotRecord;
  /** The snapshot the rows join: this run's (`job`), or the last complete one when it is not due. */
  readonly time: number;
  /** This run's snapshot of the stream, completed after the read. */
  readonly job?: SnapshotJob;
}

export async function readByKey(ctx: SnapshotRunContext, sink: Pick<Sink, 'distinctText'>, read: KeyedRead, counts: SnapshotCounts): Promise<void> {
  const { stream, job } = read;
  const byKey = stream.byKey!;
  const target = job ?? { stream, filters: undefined, record: read.record, time: read.time };
  for (const keys of keyBatches(await keysToRead(sink, read), byKey.param, Math.min(ctx.pageLimit, byKey.maxKeys))) {
    ctx.signal.throwIfAborted();
    const query = { [byKey.param]: keys, ...snapshotPage({ limit: keys.length, offset: 0 }) };
    const read = await readSnapshotPage(stream, ctx.api, query, { time: target.time, offset: 0, signal: ctx.signal });
    if (read.received > keys.length) {
      const asked = keys.length === 1 ? '1 address' : `${keys.length} addresses`;
      throw new PagingContractError(`${stream.endpoint} sent ${read.received} items for ${asked} asked for: more than one item per key`, { endpoint: stream.endpoint });
    }
    const page = { items: read.ok, rejects: read.rejects, addressBook: read.book, request: { limit: keys.length, offset: 0 } };
    await commitSnapshotPage(ctx, { ...target, filters: { [byKey.param]: keys } }, page, counts);
  }
  if (job !== undefined) await completeSnapshot(ctx, job);
}

/** `keys` in order, cut into requests of at most `most` keys whose `param=key&…` takes at most MAX_QUERY_BYTES (the paging parameters fit in its margin). */
export function keyBatches(keys: readonly string[], param: string, most: number): string[][] {
  const batches: string[][] = [];
  let batch: string[] = [];
  let bytes = 0;
  for (const key of keys) {
    const cost = new URLSearchParams([[param, key]]).toString().length + 1;
    if (batch.length > 0 && (batch.length === most || bytes + cost > MAX_QUERY_BYTES)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(key);
    bytes += cost;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/** The named keys the stream does not hold: not listed by this run's snapshot, or absent from its table when it is not due. */
async function keysToRead(sink: Pick<Sink, 'distinctText'>, read: KeyedRead): Promise<string[]> {
  const named = new Set<string>();
  for (const { table, column } of read.namedBy) for (const key of await sink.distinctText(table, column)) named.add(key);
  const table = read.stream.tables[0]!;
  const held = read.job?.listed ?? new Set(await sink.distinctText(table.name, table.primaryKey[0]!));
  return [...named].filter((key) => !held.has(key)).sort();
}
