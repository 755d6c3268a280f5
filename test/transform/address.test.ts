import { Address } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { readAddress, toRawAddress } from '../../src/transform/address.js';

const RAW = '0:52D75E0584730001239D4CD8C73D651B206EAC67DB551535B6B6D505E6D41C77';
const HEX = '3'.repeat(64);
const FORMS = 'use the raw form wc:HEX or a 48-character user-friendly address';

describe('readAddress', () => {
  it.each([
    ['EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N', '0:83DFD552E63729B472FCBCC8C45EBCC6691702558B68EC7527E1BA403A0F31A8'],
    ['0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8', '0:83DFD552E63729B472FCBCC8C45EBCC6691702558B68EC7527E1BA403A0F31A8'],
    ['EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs', '0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE'],
    ['EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id/sDs', '0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE'],
    [`-1:${HEX}`, `-1:${HEX}`],
    [`-128:${HEX}`, `-128:${HEX}`],
    [`127:${HEX}`, `127:${HEX}`],
    [`-0:${HEX}`, `0:${HEX}`],
    [`007:${HEX}`, `7:${HEX}`],
  ])('reads %s as %s', (text, raw) => {
    expect(readAddress(text)).toEqual({ raw });
  });

  it.each([
    [`128:${HEX}`, 'its workchain 128 is not one from -128 to 127'],
    [`-129:${HEX}`, 'its workchain -129 is not one from -128 to 127'],
    [`2147483647:${HEX}`, 'its workchain 2147483647 is not one from -128 to 127'],
    ['', FORMS],
    ['0:ABC', FORMS],
    [`0:${'g'.repeat(64)}`, FORMS],
    [`0:${'a'.repeat(63)}`, FORMS],
    [`+1:${HEX}`, FORMS],
    [`1:${HEX} `, FORMS],
    [`EQ${'A'.repeat(46)}`, 'its checksum or tag is wrong: copy the address again'],
  ])('refuses %j: %s', (text, reason) => {
    expect(readAddress(text)).toEqual({ reason });
  });

  it('reads the workchain a user-friendly address carries, at both ends of its byte', () => {
    for (const workchain of [-128, -1, 127]) {
      const friendly = new Address(workchain, Buffer.from(HEX, 'hex')).toString();
      expect(readAddress(friendly)).toEqual({ raw: `${workchain}:${HEX}` });
    }
  });
});

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
    expect(toRawAddress(`128:${HEX}`)).toBeUndefined();
    expect(toRawAddress('EQBS114FhHMAASOdTNjHPWUbIG6sZ9tVFTW2ttUF5tQcd-kX')).toBeUndefined();
    expect(toRawAddress('hello')).toBeUndefined();
  });
});
