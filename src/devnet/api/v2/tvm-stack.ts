/**
 * Typed TVM stack entries of runGetMethodStd, in the v2 OpenAPI's shapes (`TvmStackEntryNumber`,
 * `…Cell`, `…Slice`, `…Tuple`, `…List`): validation of the request's stack and builders for results.
 */
import { Cell } from '@ton/core';
import { ApiError } from '../../http/api-error.js';
import { boc } from '../../render/contract-cells.js';

export type StackEntry = Record<string, unknown>;

export function numberEntry(value: bigint | number): StackEntry {
  return { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: value.toString() } };
}

export function cellEntry(cell: Cell): StackEntry {
  return { '@type': 'tvm.stackEntryCell', cell: { '@type': 'tvm.cell', bytes: boc(cell) } };
}

export function sliceEntry(cell: Cell): StackEntry {
  return { '@type': 'tvm.stackEntrySlice', slice: { '@type': 'tvm.slice', bytes: boc(cell) } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks a request stack: 422 `Stack should be array` when it is not an array, 542
 * `Unsupported stack entry type: <type>` for an entry whose `@type` is none of number, cell, slice,
 * tuple, list (an entry without a string `@type` is named by its JSON), 422 with the gateway's texts
 * for malformed values.
 */
export function parseStack(stack: unknown): StackEntry[] {
  if (!Array.isArray(stack)) throw new ApiError(422, 'Stack should be array');
  return stack.map(parseEntry);
}

function parseEntry(entry: unknown): StackEntry {
  const type = isObject(entry) && typeof entry['@type'] === 'string' ? entry['@type'] : undefined;
  if (!isObject(entry) || type === undefined) throw unsupported(JSON.stringify(entry) ?? String(entry));
  switch (type) {
    case 'tvm.stackEntryNumber': {
      const number = isObject(entry.number) ? entry.number['number'] : undefined;
      const ok = (typeof number === 'string' && /^-?\d+$/.test(number)) || (typeof number === 'number' && Number.isSafeInteger(number));
      if (!ok) throw new ApiError(422, 'Wrong type of number in stack entry');
      return entry;
    }
    case 'tvm.stackEntryCell':
      checkBoc(isObject(entry.cell) ? entry.cell['bytes'] : undefined, 'tvm.Cell');
      return entry;
    case 'tvm.stackEntrySlice':
      checkBoc(isObject(entry.slice) ? entry.slice['bytes'] : undefined, 'tvm.Slice');
      return entry;
    case 'tvm.stackEntryTuple':
    case 'tvm.stackEntryList': {
      const holder = entry[type === 'tvm.stackEntryTuple' ? 'tuple' : 'list'];
      const elements = isObject(holder) ? holder['elements'] : undefined;
      if (!Array.isArray(elements)) throw new ApiError(422, 'Invalid stack format: array expected');
      elements.forEach(parseEntry);
      return entry;
    }
    default:
      throw unsupported(type);
  }
}

function unsupported(type: string): ApiError {
  return new ApiError(542, `Unsupported stack entry type: ${type}`);
}

function checkBoc(bytes: unknown, what: 'tvm.Cell' | 'tvm.Slice'): void {
  if (typeof bytes !== 'string') throw new ApiError(422, `Invalid ${what}, base64 string expected`);
  if (bytes === '') throw new ApiError(422, `Empty ${what}`);
  try {
    Cell.fromBase64(bytes);
  } catch {
    throw new ApiError(422, `Invalid ${what}, base64 string expected`);
  }
}
