/**
 * The v3 runGetMethod stack, `[{type: num|cell|slice, value}]` (num as `0x…` hex, cell and slice as
 * base64 BoCs), to and from the v2 typed entries runGetMethodStd works with.
 */
import { ApiError } from '../../http/api-error.js';
import type { StackEntry } from '../v2/tvm-stack.js';

const V2_TYPES = { num: 'tvm.stackEntryNumber', cell: 'tvm.stackEntryCell', slice: 'tvm.stackEntrySlice' } as const;

export function fromV3Stack(stack: unknown): StackEntry[] {
  if (!Array.isArray(stack)) throw new ApiError(422, 'stack must be an array');
  return stack.map((entry: unknown) => {
    const { type, value } = (entry ?? {}) as { type?: unknown; value?: unknown };
    if (typeof value !== 'string') throw new ApiError(422, `stack entry value must be a string, got ${JSON.stringify(value)}`);
    switch (type) {
      case 'num': {
        const negative = value.startsWith('-');
        const digits = negative ? value.slice(1) : value;
        if (!/^(0x[0-9a-fA-F]+|\d+)$/.test(digits)) throw new ApiError(422, `stack entry num must be hex (0x…) or decimal, got ${JSON.stringify(value)}`);
        const number = BigInt(digits) * (negative ? -1n : 1n);
        return { '@type': V2_TYPES.num, number: { '@type': 'tvm.numberDecimal', number: number.toString() } };
      }
      case 'cell':
        return { '@type': V2_TYPES.cell, cell: { '@type': 'tvm.cell', bytes: value } };
      case 'slice':
        return { '@type': V2_TYPES.slice, slice: { '@type': 'tvm.slice', bytes: value } };
      default:
        throw new ApiError(422, `unsupported stack entry type ${JSON.stringify(type)}: use num, cell or slice`);
    }
  });
}

export function toV3Stack(stack: readonly StackEntry[]): { type: string; value: string }[] {
  return stack.map((entry) => {
    switch (entry['@type']) {
      case V2_TYPES.num: {
        const value = BigInt((entry.number as { number: string }).number);
        return { type: 'num', value: (value < 0n ? '-0x' : '0x') + (value < 0n ? -value : value).toString(16) };
      }
      case V2_TYPES.cell:
        return { type: 'cell', value: (entry.cell as { bytes: string }).bytes };
      case V2_TYPES.slice:
        return { type: 'slice', value: (entry.slice as { bytes: string }).bytes };
      default:
        throw new Error(`no v3 form for a ${String(entry['@type'])} stack entry`);
    }
  });
}
