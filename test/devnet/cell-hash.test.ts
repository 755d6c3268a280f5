/**
 * The devnet's native cell hashing (src/devnet/cell-hash*.ts) against @ton/core, the reference: the
 * same random cells, messages and dictionaries built both ways have the same hash and depth.
 */
import { describe, expect, it } from 'vitest';
import { Address, beginCell, Cell, Dictionary, storeMessage, storeMessageRelaxed, storeStateInit, type Builder, type DictionaryValue, type Message, type StateInit } from '@ton/core';
import { beginHashedCell, toCoreCell, type CellWriter, type HashedCell } from '../../src/devnet/cell-hash.js';
import { messageCell, storeRelaxedInternal } from '../../src/devnet/cell-hash-message.js';
import { storeRefDict } from '../../src/devnet/cell-hash-dict.js';
import { Rng } from '../../src/devnet/chain/rng.js';

const rng = new Rng(20261126);

/** The same cell both ways: random bits (0 to 1023, written in random-sized pieces) and 0 to 4 random children. */
function randomPair(depth: number): [HashedCell, Cell] {
  const ours = beginHashedCell();
  const theirs = beginCell();
  let bits = rng.int(0, 1023);
  while (bits > 0) {
    const size = Math.min(bits, rng.pick([1, 7, 8, 32, 64, 257]));
    const value = rng.bigBits(size);
    ours.storeUint(size <= 32 ? Number(value) : value, size);
    theirs.storeUint(value, size);
    bits -= size;
  }
  const children = depth === 0 ? 0 : rng.int(0, 4);
  for (let i = 0; i < children; i++) {
    const [a, b] = randomPair(depth - 1);
    ours.storeRef(a);
    theirs.storeRef(b);
  }
  return [ours.end(), theirs.endCell()];
}

function expectSame(ours: HashedCell, theirs: Cell): void {
  expect(ours.hash.toString('hex')).toBe(theirs.hash().toString('hex'));
  expect(ours.depth).toBe(theirs.depth());
}

const address = (): Address => new Address(rng.pick([-1, 0]), rng.bytes(32));

describe('native cell hashes', () => {
  it('equal @ton/core’s on 300 random cell trees', () => {
    for (let i = 0; i < 300; i++) {
      const [ours, theirs] = randomPair(rng.int(0, 3));
      expectSame(ours, theirs);
      expect(toCoreCell(ours).equals(theirs)).toBe(true);
    }
  });

  it('write integers, coins, addresses, buffers and snake strings as @ton/core does', () => {
    const write = <B extends CellWriter | Builder>(b: B, values: { a: Address; n: number; coins: bigint; text: string; bytes: Buffer }): B => {
      b.storeInt(values.n, 32).storeInt(-values.n, 17 + (values.n % 15)).storeCoins(values.coins).storeCoins(0n).storeVarUint(values.coins, 5);
      b.storeAddress(values.a).storeAddress(null).storeBuffer(values.bytes).storeStringTail(values.text);
      return b;
    };
    for (let i = 0; i < 50; i++) {
      const values = { a: address(), n: rng.int(0, 60_000), coins: rng.bigBits(rng.int(1, 120)), text: 'ü'.repeat(rng.int(0, 300)), bytes: rng.bytes(rng.int(0, 20)) };
      expectSame(write(beginHashedCell(), values).end(), write(beginCell(), values).endCell());
    }
  });

  it('refuses values that do not fit and cells over 1023 bits or 4 references', () => {
    expect(() => beginHashedCell().storeUint(256, 8)).toThrow('256 does not fit in 8 unsigned bits');
    expect(() => beginHashedCell().storeUint(1n << 64n, 64)).toThrow('does not fit in 64 unsigned bits');
    expect(() => beginHashedCell().storeInt(-129, 8)).toThrow('-129 does not fit in 8 signed bits');
    expect(() => beginHashedCell().storeUint(0, 1000).storeUint(0, 24)).toThrow('cell overflow: more than 1023 bits');
    const leaf = beginHashedCell().end();
    expect(() => beginHashedCell().storeRef(leaf).storeRef(leaf).storeRef(leaf).storeRef(leaf).storeRef(leaf)).toThrow('cell overflow: more than 4 references');
  });

  it('build messages as @ton/core’s storeMessage does, StateInit and body in place or in a reference', () => {
    const kinds = ['internal', 'external-in', 'external-out'] as const;
    for (let i = 0; i < 60; i++) {
      const [body, coreBody] = randomPair(rng.int(0, 1));
      const [init, coreInit] = rng.chance(0.5) ? stateInitPair() : [null, null];
      const [src, dest, value, forwardFee, createdLt, createdAt] = [address(), address(), rng.bigBits(70), rng.bigBits(30), rng.int(0, 2 ** 40), rng.int(0, 2 ** 31)];
      const bounce = rng.chance(0.5);
      const bounced = rng.chance(0.5);
      const kind = rng.pick(kinds);
      const ours = messageCell({
        info:
          kind === 'internal'
            ? { type: kind, bounce, bounced, src, dest, value, forwardFee, createdLt, createdAt }
            : kind === 'external-in'
              ? { type: kind, dest }
              : { type: kind, src, createdLt, createdAt },
        init,
        body,
      });
      const info: Message['info'] =
        kind === 'internal'
          ? { type: kind, ihrDisabled: true, bounce, bounced, src, dest, value: { coins: value }, ihrFee: 0n, forwardFee, createdLt: BigInt(createdLt), createdAt }
          : kind === 'external-in'
            ? { type: kind, dest, importFee: 0n }
            : { type: kind, src, createdLt: BigInt(createdLt), createdAt };
      expectSame(ours, beginCell().store(storeMessage({ info, init: coreInit, body: coreBody })).endCell());
    }
  });

  it('choose in place or reference for the StateInit and body at every body length, as storeMessage does', () => {
    const [init, coreInit] = stateInitPair();
    const dest = address();
    for (let bits = 0; bits <= 1023; bits++) {
      const ours = beginHashedCell().storeUint(0, bits).storeRef(beginHashedCell().end()).end();
      const theirs = beginCell().storeUint(0, bits).storeRef(beginCell().endCell()).endCell();
      for (const [withInit, coreWithInit] of [[init, coreInit], [null, null]] as const) {
        expectSame(messageCell({ info: { type: 'external-in', dest }, init: withInit, body: ours }), beginCell().store(storeMessage({ info: { type: 'external-in', dest, importFee: 0n }, init: coreWithInit, body: theirs })).endCell());
      }
    }
  });

  it('build a wallet’s relaxed internal message as storeMessageRelaxed does', () => {
    for (let i = 0; i < 30; i++) {
      const [body, coreBody] = randomPair(rng.int(0, 2));
      const [dest, value, bounce] = [address(), rng.bigBits(64), rng.chance(0.5)];
      const info = { type: 'internal', ihrDisabled: true, bounce, bounced: false, dest, value: { coins: value }, ihrFee: 0n, forwardFee: 0n, createdLt: 0n, createdAt: 0 } as const;
      expectSame(storeRelaxedInternal(beginHashedCell(), { dest, value, bounce, body }).end(), beginCell().store(storeMessageRelaxed({ info, body: coreBody })).endCell());
    }
  });

  it('build HashmapE 15 of references as @ton/core’s Dictionary does, for every key set up to 6 keys', () => {
    const refValue: DictionaryValue<Cell> = { serialize: (cell, b) => b.storeRef(cell), parse: (s) => s.loadRef() };
    for (let i = 0; i < 200; i++) {
      const keys = new Set(Array.from({ length: rng.int(0, 6) }, () => (rng.chance(0.5) ? rng.int(0, 7) : rng.int(0, 32_767))));
      const ours = new Map<number, HashedCell>();
      const theirs = Dictionary.empty(Dictionary.Keys.Uint(15), refValue);
      for (const key of keys) {
        const [a, b] = randomPair(0);
        ours.set(key, a);
        theirs.set(key, b);
      }
      expectSame(storeRefDict(beginHashedCell(), 15, ours).end(), beginCell().storeDict(theirs).endCell());
    }
  });
});

/** A StateInit (code and data) both ways, large enough now and then to go into a reference. */
function stateInitPair(): [HashedCell, StateInit] {
  const [code, coreCode] = randomPair(1);
  const [data, coreData] = randomPair(0);
  const ours = beginHashedCell().storeBit(false).storeBit(false).storeMaybeRef(code).storeMaybeRef(data).storeBit(false).end();
  const theirs: StateInit = { code: coreCode, data: coreData };
  expectSame(ours, beginCell().store(storeStateInit(theirs)).endCell());
  return [ours, theirs];
}
