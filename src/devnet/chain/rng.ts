/** A small seeded PRNG (xoshiro128**): the devnet's only source of randomness, so a seed fixes the chain. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let s = seed >>> 0 || 0x9e3779b9;
    const next = (): number => {
      s = (s + 0x6d2b79f5) >>> 0;
      let t = s;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return (t ^ (t >>> 14)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
  }

  /** Uniform unsigned 32-bit integer. */
  u32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** Uniform bigint in [0, 2^bits). */
  bigBits(bits: number): bigint {
    let value = 0n;
    for (let filled = 0; filled < bits; filled += 32) value = (value << 32n) | BigInt(this.u32());
    return value & ((1n << BigInt(bits)) - 1n);
  }

  bytes(length: number): Buffer {
    const out = Buffer.allocUnsafe(length);
    for (let i = 0; i < length; i += 4) {
      const word = this.u32();
      for (let j = 0; j < 4 && i + j < length; j++) out[i + j] = (word >>> (j * 8)) & 0xff;
    }
    return out;
  }

  /** A 32-byte hash in standard base64, as the API sends hashes. */
  hash(): string {
    return this.bytes(32).toString('base64');
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
