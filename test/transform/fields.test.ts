import { describe, expect, it } from 'vitest';
import { address, amountString, lt, nullish, opcode, requiredAddress, u64 } from '../../src/transform/fields.js';

const RAW = '0:52D75E0584730001239D4CD8C73D651B206EAC67DB551535B6B6D505E6D41C77';

describe('wire fields', () => {
  it('address: any form to raw; "", null and absent to null; garbage fails', () => {
    expect(address.parse(RAW.toLowerCase())).toBe(RAW);
    expect(address.parse('')).toBeNull();
    expect(address.parse(null)).toBeNull();
    expect(address.parse(undefined)).toBeNull();
    expect(address.safeParse('0:XYZ').success).toBe(false);
    expect(address.safeParse(42).success).toBe(false);
  });

  it('requiredAddress: fails on a missing address', () => {
    expect(requiredAddress.parse(RAW)).toBe(RAW);
    expect(requiredAddress.safeParse('').success).toBe(false);
    expect(requiredAddress.safeParse(null).success).toBe(false);
  });

  it('amountString: exact up to 38 digits, refuses more, negatives and numbers', () => {
    expect(amountString.parse('1329227995784915872903807060280344575')).toBe(2n ** 120n - 1n);
    expect(amountString.parse('99999999999999999999999999999999999999')).toBe(10n ** 38n - 1n);
    expect(amountString.safeParse('100000000000000000000000000000000000000').success).toBe(false);
    expect(amountString.safeParse('-1').success).toBe(false);
    expect(amountString.safeParse(5).success).toBe(false);
  });

  it('lt: decimal strings below 2^63 only (Parquet stores lt as signed INT64), the reason named', () => {
    expect(lt.parse('9223372036854775807')).toBe(2n ** 63n - 1n);
    expect(lt.safeParse('9223372036854775808').error?.issues[0]?.message).toBe(
      'expected a logical time from 0 to 2^63-1, got 9223372036854775808n',
    );
    expect(lt.safeParse('18446744073709551616').success).toBe(false);
    expect(lt.safeParse(1).success).toBe(false);
  });

  it('u64: the whole unsigned range (query ids)', () => {
    expect(u64.parse('18446744073709551615')).toBe(2n ** 64n - 1n);
    expect(u64.safeParse('18446744073709551616').success).toBe(false);
  });

  it('nullish: absent and null become null', () => {
    expect(nullish(lt).parse(undefined)).toBeNull();
    expect(nullish(lt).parse(null)).toBeNull();
    expect(nullish(lt).parse('7')).toBe(7n);
  });

  it('opcode: hex text to the unsigned value, nothing to null, garbage fails', () => {
    expect(opcode.parse('0x0f8a7ea5')).toBe(0x0f8a7ea5);
    expect(opcode.parse(undefined)).toBeNull();
    expect(opcode.safeParse('0xZZ').success).toBe(false);
  });
});
