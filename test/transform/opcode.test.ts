import { describe, expect, it } from 'vitest';
import { opcodeHex, parseOpcode } from '../../src/transform/opcode.js';

describe('parseOpcode', () => {
  it('reads the hex text the API sends', () => {
    expect(parseOpcode('0x0f8a7ea5')).toBe(0x0f8a7ea5);
    expect(parseOpcode('0x00000000')).toBe(0);
    expect(parseOpcode('0xFFFFFFFF')).toBe(4294967295);
  });

  it('reads signed and unsigned 32-bit integers, as numbers or decimal text', () => {
    expect(parseOpcode(260734629)).toBe(0x0f8a7ea5);
    expect(parseOpcode(-1)).toBe(4294967295);
    expect(parseOpcode('-2147483648')).toBe(2147483648);
    expect(parseOpcode('4294967295')).toBe(4294967295);
  });

  it('refuses what is not a 32-bit opcode', () => {
    for (const bad of ['0x123456789', '0x', 'jetton', '4294967296', '-2147483649', '1.5']) expect(parseOpcode(bad)).toBeUndefined();
    expect(parseOpcode(1.5)).toBeUndefined();
    expect(parseOpcode(2 ** 32)).toBeUndefined();
  });

  it('prints the hex form back', () => {
    expect(opcodeHex(0x0f8a7ea5)).toBe('0x0f8a7ea5');
    expect(opcodeHex(0)).toBe('0x00000000');
  });
});
