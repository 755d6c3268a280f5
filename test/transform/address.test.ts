import { Address } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { toRawAddress } from '../../src/transform/address.js';

const RAW = '0:52D75E0584730001239D4CD8C73D651B206EAC67DB551535B6B6D505E6D41C77';

describe('toRawAddress', () => {
  it('keeps raw upper case, upper-cases raw lower case', () => {
    expect(toRawAddress(RAW)).toBe(RAW);
    expect(toRawAddress(RAW.toLowerCase())).toBe(RAW);
    expect(toRawAddress('-1:' + '3'.repeat(64))).toBe('-1:' + '3'.repeat(64));
  });

  it('turns user-friendly forms (bounceable or not, base64url or base64) into raw', () => {
    const address = Address.parseRaw(RAW);
    expect(toRawAddress('EQBS114FhHMAASOdTNjHPWUbIG6sZ9tVFTW2ttUF5tQcd-kx')).toBe(RAW);
    expect(toRawAddress(address.toString({ bounceable: false }))).toBe(RAW);
    expect(toRawAddress(address.toString({ urlSafe: false, testOnly: true }))).toBe(RAW);
  });

  it('reads "" (v1.3 missing address) as null and anything else as not an address', () => {
    expect(toRawAddress('')).toBeNull();
    expect(toRawAddress('0:ABC')).toBeUndefined();
    expect(toRawAddress('EQBS114FhHMAASOdTNjHPWUbIG6sZ9tVFTW2ttUF5tQcd-kX')).toBeUndefined();
    expect(toRawAddress('hello')).toBeUndefined();
  });
});
