/**
 * The legacy stack of POST /runGetMethod (what @ton/ton's TonClient speaks): entries are pairs
 * `["num", "0x…"]`, `["cell", {bytes}]`, `["slice", {bytes}]`, `["tuple" | "list", {elements}]`.
 * Requests are read into the typed entries of ./tvm-stack.ts; results are written back as the
 * gateway writes them (a slice comes out as `cell`, numbers in hex).
 */
import { ApiError } from '../../http/api-error.js';
import { numberEntry, parseStack, type StackEntry } from './tvm-stack.js';

export type LegacyEntry = readonly [string, unknown];

const NUMBER_TYPES = new Set(['num', 'number', 'int']);
const CELL_TYPES = new Set(['cell', 'tvm.Cell']);
const SLICE_TYPES = new Set(['slice', 'tvm.Slice']);
const NUMBER_TEXT = /^-?(?:0x[0-9a-fA-F]+|\d+)$/;

/** Reads a request's legacy stack; the errors are the gateway's (422, or 542 for a type it does not take). */
export function legacyToTyped(stack: unknown): StackEntry[] {
  if (!Array.isArray(stack)) throw new ApiError(422, 'Stack should be array');
  return parseStack(stack.map(legacyEntry));
}

function legacyEntry(entry: unknown): StackEntry {
  if (!Array.isArray(entry) || entry.length !== 2) throw new ApiError(422, 'Invalid stack entry format: array of exact 2 elements expected');
  const [type, value] = entry as [unknown, unknown];
  if (typeof type !== 'string') throw new ApiError(422, 'Expected string as first element in stack entry');
  if (NUMBER_TYPES.has(type)) {
    if (typeof value === 'number' && Number.isSafeInteger(value)) return numberEntry(value);
    if (typeof value !== 'string' || !NUMBER_TEXT.test(value)) throw new ApiError(422, 'Wrong type of number in stack entry');
    const negative = value.startsWith('-');
    const magnitude = BigInt(negative ? value.slice(1) : value);
    return numberEntry(negative ? -magnitude : magnitude);
  }
  if (CELL_TYPES.has(type)) return { '@type': 'tvm.stackEntryCell', cell: { '@type': 'tvm.cell', bytes: bytesOf(value) } };
  if (SLICE_TYPES.has(type)) return { '@type': 'tvm.stackEntrySlice', slice: { '@type': 'tvm.slice', bytes: bytesOf(value) } };
  throw new ApiError(542, `Unsupported stack entry type: ${type}`);
}

/** A cell or slice value: the BoC itself or `{bytes}`; parseStack then checks it. */
function bytesOf(value: unknown): unknown {
  return typeof value === 'object' && value !== null && 'bytes' in value ? (value as { bytes: unknown }).bytes : value;
}

/** Writes a result's typed entries in the legacy form. */
export function typedToLegacy(entries: readonly StackEntry[]): LegacyEntry[] {
  return entries.map((entry) => {
    switch (entry['@type']) {
      case 'tvm.stackEntryNumber': {
        const value = BigInt((entry.number as { number: string }).number);
        return ['num', value < 0n ? `-0x${(-value).toString(16)}` : `0x${value.toString(16)}`];
      }
      case 'tvm.stackEntryCell':
        return ['cell', { bytes: (entry.cell as { bytes: string }).bytes }];
      case 'tvm.stackEntrySlice':
        return ['cell', { bytes: (entry.slice as { bytes: string }).bytes }];
      case 'tvm.stackEntryTuple':
        return ['tuple', entry.tuple];
      case 'tvm.stackEntryList':
        return ['list', entry.list];
      default:
        throw new Error(`no legacy form for stack entry ${String(entry['@type'])}`);
    }
  });
}
