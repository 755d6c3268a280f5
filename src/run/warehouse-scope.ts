/**
 * The checkpoints a run starts from, and the refusal of a run whose scope differs from theirs: another
 * network, another chain behind the service, or other filters for a stream (see src/core/scope.ts).
 */
import { decodeCheckpoint } from '../core/checkpoint/record.js';
import type { PlannedStream, StoredCheckpoint } from './plan.js';
import { checkAnchor, checkFilters, checkNetwork, scopeFilters, type ChainAnchor, type StreamScope } from '../core/scope.js';
import type { Landmark } from '../extract/landmarks.js';
import type { Sink } from '../load/sink.js';
import type { Session } from './session.js';

/** Every stream's checkpoint row, decoded; rows of an earlier release's backfills (`backfill:…`) are no stream's. */
export async function storedCheckpoints(sink: Sink): Promise<Map<string, StoredCheckpoint>> {
  return decodedCheckpoints(await sink.readCheckpoints());
}

/** Checkpoint rows (stream → stored text), decoded; see `storedCheckpoints`. */
export function decodedCheckpoints(rows: ReadonlyMap<string, string>): Map<string, StoredCheckpoint> {
  const stored = new Map<string, StoredCheckpoint>();
  for (const [stream, text] of rows) {
    if (!stream.includes(':')) stored.set(stream, { record: decodeCheckpoint(text), text });
  }
  return stored;
}

/** Throws a ConfigError (exit 2) naming what changed when this run's network or filters are not the warehouse's. */
export function checkScopes(session: Session, stored: ReadonlyMap<string, StoredCheckpoint>): void {
  for (const [stream, { record }] of stored) if (record.scope !== undefined) checkNetwork(stream, record.scope, session.pipeline.network);
  for (const { stream, filters } of session.streams) {
    const scope = stored.get(stream.name)?.record.scope;
    if (scope !== undefined) checkFilters(stream.name, scope, scopeFilters(filtersObject(filters)));
  }
}

/**
 * Throws a ConfigError when the service behind a changed base_url serves another chain: the recorded
 * masterchain block must have the same root hash there (one request, only when the URL changed).
 */
export async function checkChain(session: Session, stored: ReadonlyMap<string, StoredCheckpoint>, signal?: AbortSignal): Promise<void> {
  const verified = new Set<string>();
  for (const { record } of stored.values()) {
    const { scope } = record;
    if (scope === undefined || scope.anchor === undefined || scope.service === session.pipeline.baseUrl) continue;
    const key = `${scope.anchor.seqno}:${scope.anchor.rootHash}`;
    if (verified.has(key)) continue;
    const block = await session.landmarks.withSeqno(scope.anchor.seqno, signal);
    checkAnchor({ ...scope, anchor: scope.anchor }, session.pipeline.baseUrl, block?.rootHash);
    verified.add(key);
  }
}

/** The scope this run records for each stream: the warehouse's chain anchor, or the tip's when it has none. */
export function scopeRecorder(session: Session, stored: ReadonlyMap<string, StoredCheckpoint>, tip: Landmark): (planned: PlannedStream) => StreamScope {
  const anchor: ChainAnchor | undefined =
    [...stored.values()].map(({ record }) => record.scope?.anchor).find((a) => a !== undefined) ??
    (tip.rootHash === undefined ? undefined : { seqno: tip.seqno, rootHash: tip.rootHash });
  return ({ filters }) => ({
    network: session.pipeline.network,
    service: session.pipeline.baseUrl,
    ...(anchor === undefined ? {} : { anchor }),
    filters: scopeFilters(filtersObject(filters)),
  });
}

function filtersObject(filters: unknown): object {
  return typeof filters === 'object' && filters !== null ? filters : {};
}
