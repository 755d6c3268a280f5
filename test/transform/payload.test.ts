import { beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { textComment, textCommentOfBoc, textCommentOfDecoded } from '../../src/transform/payload.js';

const boc = (build: (b: ReturnType<typeof beginCell>) => ReturnType<typeof beginCell>): string => build(beginCell()).endCell().toBoc().toString('base64');

describe('textCommentOfBoc', () => {
  it('decodes op 0 + text', () => {
    expect(textCommentOfBoc(boc((b) => b.storeUint(0, 32).storeStringTail('hi')))).toBe('hi');
  });

  it('decodes a long comment that continues in references, and UTF-8', () => {
    const text = 'ТОН 💎 '.repeat(40);
    expect(textCommentOfBoc(boc((b) => b.storeUint(0, 32).storeStringTail(text)))).toBe(text);
  });

  it('decodes the real mainnet bodies', () => {
    expect(textCommentOfBoc('te6cckEBAQEACQAADgAAAABGZWWsinmx')).toBe('Fee');
    expect(textCommentOfBoc('te6cckEBAQEAKAAATAAAAAAxMDAgVGVsZWdyYW0gU3RhcnMgCgpSZWYjd1FYUlh4V3Q2V6jrRw==')).toBe('100 Telegram Stars \n\nRef#wQXRXxWt6');
  });

  it('gives null for other opcodes, short or empty bodies, and garbage, without throwing', () => {
    expect(textCommentOfBoc(boc((b) => b.storeUint(0x0f8a7ea5, 32).storeStringTail('hi')))).toBeNull();
    expect(textCommentOfBoc('te6cckEBAQEAAgAAAEysuc0=')).toBeNull();
    expect(textCommentOfBoc(boc((b) => b.storeUint(0, 16)))).toBeNull();
    expect(textCommentOfBoc('not a boc')).toBeNull();
    expect(textCommentOfBoc('')).toBeNull();
    expect(textCommentOfBoc(null)).toBeNull();
  });
});

describe('textCommentOfDecoded', () => {
  it("reads the API's decoded text comment only", () => {
    expect(textCommentOfDecoded({ type: 'text_comment', comment: 'Fee' })).toBe('Fee');
    expect(textCommentOfDecoded({ '@type': 'empty_cell' })).toBeNull();
    expect(textCommentOfDecoded({ type: 'binary_comment', comment: 'AAE=' })).toBeNull();
    expect(textCommentOfDecoded(null)).toBeNull();
    expect(textCommentOfDecoded('Fee')).toBeNull();
  });
});

describe('textComment', () => {
  const hi = boc((b) => b.storeUint(0, 32).storeStringTail('hi'));

  it('prefers the decoded form, falls back to the BoC', () => {
    expect(textComment({ decoded: { type: 'text_comment', comment: 'api' }, boc: hi })).toBe('api');
    expect(textComment({ decoded: null, boc: hi })).toBe('hi');
  });

  it('skips decoding when the opcode says the body is no comment', () => {
    expect(textComment({ boc: hi, opcode: 0x0f8a7ea5 })).toBeNull();
    expect(textComment({ boc: hi, opcode: null })).toBeNull();
    expect(textComment({ boc: hi, opcode: 0 })).toBe('hi');
  });
});
