/**
 * The stream registry: one line per stream. Everything else (the pipeline schema and its docs, the
 * resolved filters, CLI, planner, schema files) reads streams from here.
 */
import { ConfigError } from '../core/errors.js';
import { isSnapshot, type AnyStream, type SnapshotDefinition, type StreamDefinition } from '../core/stream.js';
import type { AnyTable } from '../core/table.js';
import { actionsStream } from './actions.js';
import { addressesTable } from '../transform/address-book.js';
import { blocksStream } from './blocks.js';
import { jettonBurnsStream } from './jetton-burns.js';
import { jettonMastersStream } from './jetton-masters.js';
import { jettonWalletsStream } from './jetton-wallets.js';
import { nftCollectionsStream } from './nft-collections.js';
import { nftItemsStream } from './nft-items.js';
import { jettonTransfersStream } from './jetton-transfers.js';
import { nftTransfersStream } from './nft-transfers.js';
import { tracesStream } from './traces.js';
import { transactionsStream } from './transactions.js';
import { validatorCyclesStream } from './validator-cycles.js';
import { validatorElectionsStream } from './validator-elections.js';
import { validatorEventsStream } from './validator-events.js';

const registered = [
  transactionsStream,
  actionsStream,
  jettonTransfersStream,
  validatorEventsStream,
  blocksStream,
  jettonBurnsStream,
  nftTransfersStream,
  validatorCyclesStream,
  validatorElectionsStream,
  tracesStream,
  jettonMastersStream,
  jettonWalletsStream,
  nftItemsStream,
  nftCollectionsStream,
] as const;

/** Every stream, in the order help and docs list them. */
export const allStreams: readonly AnyStream[] = registered;

/** The streams paged by a position (lt or utime), checkpointed by coverage. */
export const streams: readonly StreamDefinition[] = allStreams.filter((stream): stream is StreamDefinition => !isSnapshot(stream));

/** The snapshot streams: state read whole on each refresh. */
export const snapshotStreams: readonly SnapshotDefinition[] = allStreams.filter(isSnapshot);

type Registered = (typeof registered)[number];

/** A stream's name as pipeline files write it. */
export type StreamName = Registered['name'];

/** Every stream's name, in the registry's order. */
export const STREAM_NAMES: readonly StreamName[] = registered.map((stream) => stream.name);

/** Each stream's resolved filters (TypeScript names; an absent filter takes everything). */
export type StreamFilters = { readonly [S in Registered as S['name']]: Parameters<S['query']>[0] };

/** The stream called `name`; fails with the list of names for any other. */
export function streamByName<N extends StreamName>(name: N): Extract<Registered, { readonly name: N }>;
export function streamByName(name: string): AnyStream;
export function streamByName(name: string): AnyStream {
  const stream = allStreams.find((candidate) => candidate.name === name);
  if (stream === undefined) {
    throw new ConfigError(`Unknown stream ${JSON.stringify(name)}: expected one of ${STREAM_NAMES.join(', ')}`);
  }
  return stream;
}

/** Every data table of every stream, then the `addresses` dimension; each once. */
export const dataTables: readonly AnyTable[] = [...new Set([...allStreams.flatMap((stream) => stream.tables), addressesTable])];
