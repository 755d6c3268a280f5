/**
 * A snapshot stream as `status` reports it, from its checkpoint row alone: when its last complete
 * snapshot was taken, whether a later one was begun and not completed, and when a sync takes the next.
 */
import { decodeCheckpoint } from '../core/checkpoint/record.js';
import { NAME_WIDTH } from './stream-status.js';
import { isoSeconds, utcTimeOfIso } from '../core/utc-time.js';

export interface SnapshotStatus {
  readonly stream: string;
  readonly axis: 'snapshot';
  /** When the last complete snapshot was taken (ISO, UTC); null before the first. */
  readonly last_snapshot: string | null;
  /** A snapshot was begun after it and not completed: the tables mix two snapshots until the next sync completes one. */
  readonly incomplete: boolean;
  /** The pipeline's `refresh.every` in seconds; null when every sync takes one. */
  readonly refresh_seconds: number | null;
  /** From when a sync takes the next snapshot (ISO); null when the next sync does. */
  readonly next_due: string | null;
}

export function snapshotStatus(stream: string, stored: string | undefined, refresh: number | undefined): SnapshotStatus {
  const record = stored === undefined ? undefined : decodeCheckpoint(stored);
  const last = record === undefined || record.position < 0n ? undefined : Number(record.position);
  const incomplete = (record?.pending?.length ?? 0) > 0;
  const due = last === undefined || incomplete || refresh === undefined ? undefined : last + refresh;
  return {
    stream,
    axis: 'snapshot',
    last_snapshot: last === undefined ? null : isoSeconds(last),
    incomplete,
    refresh_seconds: refresh ?? null,
    next_due: due === undefined || due * 1000 <= Date.now() ? null : isoSeconds(due),
  };
}

export function snapshotStatusLines(status: SnapshotStatus, nameWidth = NAME_WIDTH): string[] {
  const taken = status.last_snapshot === null ? 'no snapshot yet' : `snapshot ${utcTimeOfIso(status.last_snapshot)}`;
  const next = status.next_due === null ? 'the next sync takes one' : `next due ${utcTimeOfIso(status.next_due)}`;
  const lines = [`${status.stream.padEnd(nameWidth)} ${taken}; ${next}`];
  if (status.incomplete) lines.push('  a later snapshot was begun and not completed: the next sync completes one and removes what it did not see');
  return lines;
}
