/**
 * The two light streams (few rows, few requests: the quickest whole runs) and the check that a
 * warehouse holds exactly their truth from the devnet's first block to its tip.
 */
import { expect } from 'vitest';
import type { StreamDefinition } from '../../src/core/stream.js';
import type { Devnet } from '../../src/devnet/index.js';
import { streams } from '../../src/streams/index.js';
import { mcBlock, positionAt, tipBlock, tipPositionOf } from './chain-points.js';
import { expectedStreamRows } from './expected-rows.js';
import { describeDiff, diffRows, mismatch, NO_MISMATCH, tableNamed } from './row-diff.js';
import { FIRST_MC } from './test-devnet.js';
import type { Snapshot } from './warehouse-snapshot.js';

export const LIGHT_STREAMS: readonly StreamDefinition[] = streams.filter((s) => ['jetton_transfers', 'validator_events'].includes(s.name));

/** `[jetton_transfers, validator_events]`, for a pipeline file. */
export const LIGHT_STREAMS_YAML = `[${LIGHT_STREAMS.map((s) => s.name).join(', ')}]`;

/** Every light stream's checkpoint is at the devnet's tip and its tables equal the truth from FIRST_MC to there. */
export function expectLightStreamsAtTip(devnet: Devnet, snapshot: Snapshot): void {
  const tip = tipBlock(devnet);
  const first = mcBlock(devnet, FIRST_MC);
  for (const stream of LIGHT_STREAMS) {
    expect(snapshot.checkpoints.get(stream.name), stream.name).toBe(tipPositionOf(tip, stream));
    for (const [table, rows] of expectedStreamRows(devnet, stream, { from: positionAt(first, stream), to: tipPositionOf(tip, stream) })) {
      const diff = diffRows(tableNamed(table), rows, snapshot.tables.get(table) ?? []);
      expect(diff.expected, `${table}: the truth has rows`).toBeGreaterThan(0);
      expect(mismatch(diff), describeDiff(diff)).toEqual(NO_MISMATCH);
    }
  }
}
