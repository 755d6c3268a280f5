import { z } from 'zod';
import { byKind, presentFilters, type AnyStream, type FilterShape } from '../core/stream.js';
import { describeProblem } from '../options/expect.js';
import { closedMap, duration } from '../options/fields.js';
import { oneOf } from '../options/show.js';
import { STREAM_NAMES, allStreams } from '../streams/index.js';
import { longListIn, tooLongMessage } from './url-length.js';
import '../options/meta.js';

/** The key every snapshot stream's entry has beside its filters: how often a sync takes a new snapshot. */
export const REFRESH_KEY = 'refresh';

const refresh = closedMap(
  { every: duration().meta({ description: 'Take a new snapshot only when the last complete one is at least this old (30m, 6h, 1d).', typeLabel: 'duration' }) },
  { noun: 'key', where: 'for refresh', listName: 'refresh keys' },
)
  .optional()
  .meta({ description: 'How often a sync takes a new snapshot of this state; a sync before it is due skips the stream and says so. Without it every sync takes one.', typeLabel: 'map' });

/** A stream's entry under `streams:`: its filters in a closed map, documented by the stream (a snapshot stream's with `refresh`). */
function entry(stream: AnyStream) {
  const shape = byKind<FilterShape>(stream, { position: (positioned) => positioned.filters, snapshot: (snapshot) => ({ ...snapshot.filters, [REFRESH_KEY]: refresh }) });
  return closedMap(shape, { noun: 'filter', where: `for ${stream.name}`, listName: `${stream.name} filters` })
    .superRefine((entry, ctx) => {
      const { [REFRESH_KEY]: _refresh, ...filters } = entry;
      const conflict = stream.conflictIn?.(presentFilters(filters));
      if (conflict !== undefined) ctx.addIssue({ code: 'custom', message: conflict });
      const long = longListIn(stream, filters);
      if (long !== undefined) ctx.addIssue({ code: 'custom', path: [long.filter], input: filters[long.filter], message: tooLongMessage(stream, long) });
    })
    .nullable()
    .optional()
    .meta({ description: stream.doc, typeLabel: 'map of filters, or empty' });
}

/** The list form `[transactions, actions]` is the map form with no filters. */
function namesToMap(value: unknown, ctx: z.core.$RefinementCtx): unknown {
  if (!Array.isArray(value)) return value;
  const map: Record<string, null> = {};
  value.forEach((item: unknown, index) => {
    if (typeof item !== 'string') {
      const fix = 'give filters in the map form, streams: { name: { filter: value } }';
      ctx.addIssue({ code: 'custom', path: [index], input: item, message: describeProblem({ expected: 'a stream name', fix }, item) });
    } else if (Object.hasOwn(map, item)) {
      ctx.addIssue({ code: 'custom', path: [index], input: item, message: `${JSON.stringify(item)} is listed twice: remove one` });
    } else {
      map[item] = null;
    }
  });
  return map;
}

const atLeastOne = `at least one of ${oneOf(STREAM_NAMES)}`;

/** `streams:` as a list of names or a map from name to filters. */
export function streamsField() {
  return z.preprocess(
    namesToMap,
    closedMap(Object.fromEntries(allStreams.map((stream) => [stream.name, entry(stream)])), {
      noun: 'stream',
      listName: 'streams',
      expected: `a list of stream names or a map from name to filters (${STREAM_NAMES.join(', ')})`,
    }).superRefine(
      (streams, ctx) => {
        if (Object.keys(streams).length === 0) ctx.addIssue({ code: 'custom', message: `expected ${atLeastOne}, got none` });
      },
      // An unknown (misspelt) stream leaves the map empty; its own message, with the suggestion, is the one to show.
      { when: (payload) => payload.issues.length === 0 },
    ),
  );
}
