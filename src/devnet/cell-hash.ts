/**
 * Cells hashed with node:crypto's native SHA-256: a builder with @ton/core's method names whose cells
 * carry their representation hash and depth (TVM ordinary cells, level 0), computed once at `end()`.
 * @ton/core hashes every cell it builds with pure-JS SHA-256, too slow to hash each transaction of a
 * long chain as it is generated; these cells convert to @ton/core's (`toCoreCell`) where a BoC is sent.
 */
import { hash } from 'node:crypto';
import { BitString, Cell } from '@ton/core';

/** A child: one of ours, or a @ton/core cell (its hash and depth are already computed). */
export type CellRef = HashedCell | Cell;

/** An address as a cell stores it (addr_std, no anycast); @ton/core's `Address` is one. */
export interface StdAddress {
  readonly workChain: number;
  readonly hash: Buffer;
}

const MAX_BITS = 1023;
const MAX_REFS = 4;

export class HashedCell {
  /** Computed on first use: a cell written into another in place is never hashed. */
  private computedHash: string | undefined;
  private computedDepth = 0;

  constructor(
    /** The data bits as bytes, left-aligned, the last byte's unused bits zero. */
    readonly bytes: readonly number[],
    readonly bitLength: number,
    readonly refs: readonly CellRef[],
  ) {}

  get hash(): Buffer {
    return Buffer.from(this.latin1Hash, 'latin1');
  }

  get depth(): number {
    this.compute();
    return this.computedDepth;
  }

  /** The hash as a latin1 string (cheaper to make than a Buffer: most cells are hashed only to hash their parent). */
  get latin1Hash(): string {
    return this.compute();
  }

  /** Depth: 0 for a leaf, else one more than the deepest child. Hash: sha256 of d1 d2, the data with its completion tag, the refs' depths, the refs' hashes. */
  private compute(): string {
    if (this.computedHash !== undefined) return this.computedHash;
    const { bytes, bitLength, refs } = this;
    let depth = 0;
    // Hashes the children first: they use `repr` too.
    for (const ref of refs) depth = Math.max(depth, depthOf(ref) + 1);
    repr[0] = refs.length;
    repr[1] = bytes.length + (bitLength >> 3);
    for (let i = 0; i < bytes.length; i++) repr[2 + i] = bytes[i]!;
    if (bitLength % 8 !== 0) repr[1 + bytes.length]! |= 0x80 >> (bitLength % 8);
    let at = 2 + bytes.length;
    for (const ref of refs) at = repr.writeUInt16BE(depthOf(ref), at);
    for (const ref of refs) at += ref instanceof Cell ? ref.hash().copy(repr, at) : repr.write(ref.latin1Hash, at, 'latin1');
    this.computedDepth = depth;
    this.computedHash = hash('sha256', repr.subarray(0, at), 'binary');
    return this.computedHash;
  }
}

export function beginHashedCell(): CellWriter {
  return new CellWriter();
}

/** Writes bits into a plain array (cheaper to make than a Buffer, and most cells live a moment). */
export class CellWriter {
  private readonly bytes: number[] = [];
  private bitLength = 0;
  private readonly refs: CellRef[] = [];

  get availableBits(): number {
    return MAX_BITS - this.bitLength;
  }

  get refCount(): number {
    return this.refs.length;
  }

  storeBit(bit: boolean | number): this {
    return this.storeSmallUint(bit ? 1 : 0, 1);
  }

  /** `value` below 2^bits, written big-endian. */
  storeUint(value: number | bigint, bits: number): this {
    if (typeof value === 'number' && Number.isSafeInteger(value)) {
      if (bits <= 32) return this.storeSmallUint(value, bits);
      if (value < 0 || (bits < 53 && value >= 2 ** bits)) throw new Error(`${value} does not fit in ${bits} unsigned bits`);
      const high = Math.floor(value / 2 ** 32);
      return this.storeUint(high, bits - 32).storeSmallUint(value - high * 2 ** 32, 32);
    }
    const big = BigInt(value);
    if (big < 0n || big >> BigInt(bits) !== 0n) throw new Error(`${value} does not fit in ${bits} unsigned bits`);
    for (let rest = bits; rest > 0; ) {
      const chunk = rest % 32 || 32;
      rest -= chunk;
      this.storeSmallUint(Number((big >> BigInt(rest)) & 0xffffffffn), chunk);
    }
    return this;
  }

  /** Two's complement in `bits` bits (at most 32). */
  storeInt(value: number, bits: number): this {
    if (bits > 32 || value < -(2 ** (bits - 1)) || value >= 2 ** (bits - 1)) throw new Error(`${value} does not fit in ${bits} signed bits`);
    return this.storeSmallUint(value < 0 ? value + 2 ** bits : value, bits);
  }

  /** VarUInteger: the byte length in `headerBits` bits, then the value in that many bytes. */
  storeVarUint(value: bigint, headerBits: number): this {
    const bytes = byteLengthOf(value);
    this.storeSmallUint(bytes, headerBits);
    return bytes === 0 ? this : this.storeUint(bytes <= 6 ? Number(value) : value, bytes * 8);
  }

  storeCoins(amount: bigint): this {
    return this.storeVarUint(amount, 4);
  }

  /** addr_std without anycast, or addr_none for null. */
  storeAddress(address: StdAddress | null): this {
    if (address === null) return this.storeSmallUint(0, 2);
    return this.storeSmallUint(0b100, 3).storeInt(address.workChain, 8).storeBuffer(address.hash);
  }

  storeBuffer(bytes: Uint8Array): this {
    return this.storeBytes(bytes, bytes.length);
  }

  /** The bytes a base64 text encodes (at most 128). */
  storeBase64(text: string): this {
    return this.storeBytes(decoded, decoded.write(text, 'base64'));
  }

  /** The first `count` data bits of `cell`. */
  storeBits(cell: HashedCell, count: number): this {
    const whole = count >> 3;
    this.storeBytes(cell.bytes, whole);
    if (count % 8 !== 0) this.storeSmallUint(cell.bytes[whole]! >> (8 - (count % 8)), count % 8);
    return this;
  }

  /** A cell's bits and refs written into this one (@ton/core's `storeBuilder`). */
  storeInline(cell: HashedCell): this {
    this.storeBits(cell, cell.bitLength);
    for (const ref of cell.refs) this.storeRef(ref);
    return this;
  }

  storeRef(cell: CellRef): this {
    if (this.refs.length >= MAX_REFS) throw new Error('cell overflow: more than 4 references');
    this.refs.push(cell);
    return this;
  }

  storeMaybeRef(cell: CellRef | null): this {
    return cell === null ? this.storeBit(false) : this.storeBit(true).storeRef(cell);
  }

  /** UTF-8 text as a snake: what fits here, the rest in a chain of references (@ton/core's `storeStringTail`). */
  storeStringTail(text: string): this {
    return this.storeSnake(Buffer.from(text));
  }

  end(): HashedCell {
    return new HashedCell(this.bytes, this.bitLength, this.refs);
  }

  private storeSnake(bytes: Buffer): this {
    const fits = Math.floor(this.availableBits / 8);
    if (bytes.length <= fits) return this.storeBuffer(bytes);
    return this.storeBuffer(bytes.subarray(0, fits)).storeRef(new CellWriter().storeSnake(bytes.subarray(fits)).end());
  }

  private storeBytes(bytes: ArrayLike<number>, count: number): this {
    if (this.bitLength + count * 8 > MAX_BITS) throw new Error('cell overflow: more than 1023 bits');
    const used = this.bitLength & 7;
    for (let i = 0; i < count; i++) {
      const byte = bytes[i]!;
      if (used === 0) {
        this.bytes.push(byte);
      } else {
        this.bytes[this.bytes.length - 1]! |= byte >> used;
        this.bytes.push((byte << (8 - used)) & 0xff);
      }
    }
    this.bitLength += count * 8;
    return this;
  }

  /** `value` below 2^bits, bits at most 32. */
  private storeSmallUint(value: number, bits: number): this {
    if (this.bitLength + bits > MAX_BITS) throw new Error('cell overflow: more than 1023 bits');
    if (!(value >= 0 && value < POWERS_OF_TWO[bits]!)) throw new Error(`${value} does not fit in ${bits} unsigned bits`);
    for (let rest = bits; rest > 0; ) {
      const used = this.bitLength & 7;
      if (used === 0) this.bytes.push(0);
      const take = Math.min(8 - used, rest);
      rest -= take;
      const part = (value >>> rest) & ((1 << take) - 1);
      this.bytes[this.bitLength >> 3]! |= part << (8 - used - take);
      this.bitLength += take;
    }
    return this;
  }
}

const POWERS_OF_TWO = Array.from({ length: 33 }, (_, bits) => 2 ** bits);

/** The @ton/core cell of the same tree (its hash is the same; @ton/core computes it again). */
export function toCoreCell(cell: CellRef): Cell {
  if (cell instanceof Cell) return cell;
  return new Cell({ bits: new BitString(Buffer.from(cell.bytes), 0, cell.bitLength), refs: cell.refs.map(toCoreCell) });
}

/** Bytes of the shortest big-endian form of `value` (0 for zero). */
function byteLengthOf(value: bigint): number {
  if (value < 0n) throw new Error(`${value} is negative`);
  if (value <= 0xffffffffn) {
    const n = Number(value);
    return (32 - Math.clz32(n) + 7) >> 3;
  }
  return Math.ceil(value.toString(16).length / 2);
}

function depthOf(cell: CellRef): number {
  return cell instanceof Cell ? cell.depth() : cell.depth;
}

const decoded = Buffer.alloc(128);

/** Large enough for any cell's representation: d1 d2, 128 data bytes, 4 × (depth + hash). */
const repr = Buffer.alloc(2 + 128 + 4 * 34);
