/**
 * The tables a pipeline of every position stream writes (the test workspace's default, see
 * workspace.ts): the snapshot streams' tables are not among them.
 */
import { streams } from '../../src/streams/index.js';
import { addressesTable } from '../../src/transform/address-book.js';
import type { AnyTable } from '../../src/core/table.js';

export const positionTables: readonly AnyTable[] = [...new Set([...streams.flatMap((stream) => stream.tables), addressesTable])];
