/** The character loops of text-shapes.ts against the regular expressions they replace, on texts near and far from the shape. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isBase64Hash, isRawAddress } from '../../src/core/text-shapes.js';

const BASE64_HASH = /^[A-Za-z0-9+/]{43}=$/;
const RAW_ADDRESS = /^-?\d{1,10}:[0-9A-F]{64}$/;

/** A valid text with one character changed, removed or added at a random place, or as it is. */
function nearly(valid: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const chars = fc.constantFrom(...'Aa0+/=-:_.xF9gG \u00e9\u0100\ud800'.split(''));
  return fc.tuple(valid, fc.nat(), chars, fc.constantFrom('keep', 'replace', 'remove', 'insert')).map(([text, at, char, how]) => {
    const i = at % (text.length + 1);
    if (how === 'replace') return text.slice(0, i) + char + text.slice(i + 1);
    if (how === 'remove') return text.slice(0, i) + text.slice(i + 1);
    if (how === 'insert') return text.slice(0, i) + char + text.slice(i);
    return text;
  });
}

const base64Hash = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes).toString('base64'));
const rawAddress = fc
  .tuple(fc.integer({ min: -2_147_483_648, max: 9_999_999_999 }), fc.uint8Array({ minLength: 32, maxLength: 32 }))
  .map(([workchain, bytes]) => `${workchain}:${Buffer.from(bytes).toString('hex').toUpperCase()}`);

describe('isBase64Hash', () => {
  test('agrees with /^[A-Za-z0-9+/]{43}=$/', () => {
    fc.assert(fc.property(fc.oneof(nearly(base64Hash), fc.string()), (text) => isBase64Hash(text) === BASE64_HASH.test(text)), { numRuns: 5000 });
  });

  test.each([
    ['a hash', 'q83vASNFZ4mrze8BI0VniavN7wEjRWeJq83vASNFZ4k=', true],
    ['url-safe base64', 'q83vASNFZ4mrze8BI0VniavN7wEjRWeJq83vASNFZ4-=', false],
    ['no padding', 'q83vASNFZ4mrze8BI0VniavN7wEjRWeJq83vASNFZ4kA', false],
    ['a newline at the end', 'q83vASNFZ4mrze8BI0VniavN7wEjRWeJq83vASNFZ4k=\n', false],
  ])('%s', (_what, text, expected) => {
    expect(isBase64Hash(text)).toBe(expected);
  });
});

describe('isRawAddress', () => {
  test('agrees with /^-?\\d{1,10}:[0-9A-F]{64}$/', () => {
    fc.assert(fc.property(fc.oneof(nearly(rawAddress), fc.string()), (text) => isRawAddress(text) === RAW_ADDRESS.test(text)), { numRuns: 5000 });
  });

  test.each([
    ['workchain 0', `0:${'AB'.repeat(32)}`, true],
    ['masterchain', `-1:${'AB'.repeat(32)}`, true],
    ['lower-case hex', `0:${'ab'.repeat(32)}`, false],
    ['no workchain', `:${'AB'.repeat(32)}`, false],
    ['a minus alone', `-:${'AB'.repeat(32)}`, false],
    ['eleven digits', `12345678901:${'AB'.repeat(32)}`, false],
    ['ten digits', `1234567890:${'AB'.repeat(32)}`, true],
  ])('%s', (_what, text, expected) => {
    expect(isRawAddress(text)).toBe(expected);
  });
});
