/**
 * Message opcodes: the first 32 bits of a body. The API sends them as `"0x0f8a7ea5"` (the spec says
 * integer; a signed 32-bit decimal is the form its filters accept). Stored as the unsigned value.
 */

const HEX = /^0x([0-9a-fA-F]{1,8})$/;
const DECIMAL = /^-?\d{1,10}$/;
const INT32_MIN = -(2 ** 31);
const UINT32_LIMIT = 2 ** 32;

/** The unsigned 32-bit value (0 … 2^32−1) of an opcode in hex text, decimal text or a number; undefined when it is none. */
export function parseOpcode(value: string | number): number | undefined {
  if (typeof value === 'string') {
    const hex = HEX.exec(value);
    if (hex !== null) return Number.parseInt(hex[1]!, 16);
    if (!DECIMAL.test(value)) return undefined;
    return fromInteger(Number(value));
  }
  return Number.isInteger(value) ? fromInteger(value) : undefined;
}

function fromInteger(value: number): number | undefined {
  if (value < INT32_MIN || value >= UINT32_LIMIT) return undefined;
  return value < 0 ? value + UINT32_LIMIT : value;
}

/** `0x0f8a7ea5` for an unsigned opcode value. */
export function opcodeHex(opcode: number): string {
  return `0x${opcode.toString(16).padStart(8, '0')}`;
}
