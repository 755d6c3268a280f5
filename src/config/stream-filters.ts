import { z } from 'zod';
import { inTypeScriptNames, type StreamDefinition } from '../core/stream.js';
import { describeProblem } from '../options/expect.js';
import { closedMap } from '../options/fields.js';
import { oneOf } from '../options/show.js';
import { STREAM_NAMES, streams } from '../streams/index.js';
import '../options/meta.js';

/** A stream's entry under `streams:`: its filters in a closed map, documented by the stream. */
function entry(stream: StreamDefinition) {
  return closedMap(stream.filters, { noun: 'filter', where: `for ${stream.name}`, listName: `${stream.name} filters` })
    .superRefine((filters, ctx) => {
      const conflict = stream.conflictIn?.(inTypeScriptNames(filters));
      if (conflict !== undefined) ctx.addIssue({ code: 'custom', message: conflict });
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
    closedMap(Object.fromEntries(streams.map((stream) => [stream.name, entry(stream)])), {
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
