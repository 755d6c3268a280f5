import { z } from 'zod';
import { describeProblem } from './expect.js';
import { address, closedMap, list, matching } from './fields.js';
import { oneOf } from './show.js';
import './meta.js';

/** The streams a pipeline can export, in the order help and docs list them. */
export const STREAM_NAMES = ['transactions', 'actions', 'jetton_transfers', 'validator_events'] as const;

export type StreamName = (typeof STREAM_NAMES)[number];

const ACTION_TYPE = /^[a-z0-9_.]+$/;

const filtersOf = <Shape extends z.ZodRawShape>(stream: StreamName, shape: Shape) =>
  closedMap(shape, { noun: 'filter', where: `for ${stream}`, listName: `${stream} filters` });

/** Each stream's filters; all optional, none means the whole chain. */
const filters = {
  transactions: filtersOf('transactions', {
    accounts: list(address(), 'a list of addresses').optional().meta({
      description: 'Only transactions of these accounts.',
      typeLabel: 'list of addresses',
    }),
  }),
  actions: filtersOf('actions', {
    action_types: list(
      matching(ACTION_TYPE, {
        expected: 'an action type name of lower-case letters, digits, _ and . (e.g. jetton_transfer)',
      }),
      'a list of action type names',
    )
      .optional()
      .meta({ description: 'Only actions of these types, e.g. jetton_transfer, ton_transfer.', typeLabel: 'list of names' }),
  }),
  jetton_transfers: filtersOf('jetton_transfers', {
    jetton_master: address()
      .optional()
      .meta({ description: 'Only transfers of this jetton (its master contract).', typeLabel: 'address' }),
    owner_addresses: list(address(), 'a list of addresses').optional().meta({
      description: 'Only transfers whose source or destination owner is one of these.',
      typeLabel: 'list of addresses',
    }),
  }),
  validator_events: filtersOf('validator_events', {
    stake_holder: address()
      .optional()
      .meta({ description: 'Only events of this stake holder (validator wallet or pool).', typeLabel: 'address' }),
  }),
} as const satisfies Record<StreamName, z.ZodType>;

const descriptions: Record<StreamName, string> = {
  transactions: 'Transactions, with their messages.',
  actions: 'Classified actions (transfers, swaps, …) of completed traces; re-read over actions_overlap.',
  jetton_transfers: 'Jetton transfers, keyed by transaction hash (aborted transfers are never listed by the service).',
  validator_events: 'Validator stake events of the elector (accepted, rejected, recovered stakes).',
};

const entry = <T extends z.ZodType>(stream: StreamName, schema: T) =>
  schema.nullable().optional().meta({ description: descriptions[stream], typeLabel: 'map of filters, or empty' });

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
    closedMap(
      {
        transactions: entry('transactions', filters.transactions),
        actions: entry('actions', filters.actions),
        jetton_transfers: entry('jetton_transfers', filters.jetton_transfers),
        validator_events: entry('validator_events', filters.validator_events),
      },
      { noun: 'stream', listName: 'streams', expected: `a list of stream names or a map from name to filters (${STREAM_NAMES.join(', ')})` },
    ).superRefine(
      (streams, ctx) => {
        if (Object.keys(streams).length === 0) ctx.addIssue({ code: 'custom', message: `expected ${atLeastOne}, got none` });
      },
      // An unknown (misspelt) stream leaves the map empty; its own message, with the suggestion, is the one to show.
      { when: (payload) => payload.issues.length === 0 },
    ),
  );
}
