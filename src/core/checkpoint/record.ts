/**
 * A stream's checkpoint row: where a sync continues, the ranges the warehouse holds completely, and
 * the scope (network, service, filters) they were loaded with. Stored as JSON text,
 * `{"position":"N","covered":[["a","b"],…],"scope":{…}}`; a row written by an earlier release holds
 * `{"position":"N"}` only (its coverage and scope are unknown). A snapshot stream's row holds the
 * time of its last complete snapshot as `position` (-1 before any), no coverage, and `pending`.
 */
import { Coverage, type Range } from './coverage.js';
import type { StreamScope } from '../scope.js';

export interface StreamCheckpoint {
  /** Everything up to here is done: a sync continues after it. At least the end of `covered`. */
  readonly position: bigint;
  readonly covered: Coverage;
  /**
   * Snapshot streams only: the times (unix seconds) of snapshots started and not completed, whose
   * rows may still be in the tables; the next complete snapshot deletes them. Absent when none.
   */
  readonly pending?: readonly bigint[];
  /** The earliest position of a stored item the service may still change (`StreamDefinition.openUntil`); absent when none. */
  readonly open?: bigint;
  /** Undefined for a row of an earlier release. */
  readonly scope: StreamScope | undefined;
}

export function encodeCheckpoint(checkpoint: StreamCheckpoint): string {
  return JSON.stringify({
    position: checkpoint.position.toString(),
    covered: checkpoint.covered.ranges.map((r) => [r.from.toString(), r.to.toString()]),
    ...(checkpoint.pending === undefined || checkpoint.pending.length === 0 ? {} : { pending: checkpoint.pending.map(String) }),
    ...(checkpoint.open === undefined ? {} : { open: checkpoint.open.toString() }),
    ...(checkpoint.scope === undefined ? {} : { scope: checkpoint.scope }),
  });
}

export function decodeCheckpoint(text: string): StreamCheckpoint {
  const parsed: unknown = JSON.parse(text);
  if (!isRecord(parsed) || typeof parsed.position !== 'string' || !INTEGER.test(parsed.position)) {
    throw new Error(`unreadable checkpoint ${JSON.stringify(text)}: expected {"position":"<integer>",…}`);
  }
  const ranges: Range[] = [];
  if (Array.isArray(parsed.covered)) {
    for (const pair of parsed.covered) {
      if (!Array.isArray(pair) || pair.length !== 2 || !pair.every((p) => typeof p === 'string' && INTEGER.test(p))) {
        throw new Error(`unreadable checkpoint ${JSON.stringify(text)}: "covered" holds ${JSON.stringify(pair)}, expected ["<from>","<to>"]`);
      }
      ranges.push({ from: BigInt(pair[0] as string), to: BigInt(pair[1] as string) });
    }
  }
  const pending = Array.isArray(parsed.pending) ? parsed.pending.filter((p): p is string => typeof p === 'string' && INTEGER.test(p)).map(BigInt) : [];
  const open = typeof parsed.open === 'string' && INTEGER.test(parsed.open) ? { open: BigInt(parsed.open) } : {};
  return { position: BigInt(parsed.position), covered: new Coverage(ranges), ...(pending.length === 0 ? {} : { pending }), ...open, scope: isRecord(parsed.scope) ? (parsed.scope as unknown as StreamScope) : undefined };
}

const INTEGER = /^-?\d+$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
