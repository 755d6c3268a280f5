/**
 * `HashmapE n ^X` with unsigned keys written with ./cell-hash.ts: the edge labels (short, long or
 * same, whichever is shortest, short first on a tie) as @ton/core's `serializeDict` chooses them, so
 * the cells are the ones @ton/core's Dictionary would build.
 */
import { beginHashedCell, type CellWriter, type HashedCell } from './cell-hash.js';

/** Stores the dictionary (Maybe ^Hashmap) of `values`, each as a reference, under keys of `keyBits` bits. */
export function storeRefDict(b: CellWriter, keyBits: number, values: ReadonlyMap<number, HashedCell>): CellWriter {
  if (values.size === 0) return b.storeBit(false);
  const entries = [...values].map(([key, value]): Entry => [key.toString(2).padStart(keyBits, '0'), value]);
  return b.storeBit(true).storeRef(edge(beginHashedCell(), entries, keyBits).end());
}

type Entry = readonly [bits: string, value: HashedCell];

/** Writes the edge holding `entries` (their keys' remaining `keyBits` bits) into `b`. */
function edge(b: CellWriter, entries: readonly Entry[], keyBits: number): CellWriter {
  const label = commonPrefix(entries.map(([bits]) => bits));
  storeLabel(b, label, keyBits);
  const rest = keyBits - label.length;
  const below = entries.map(([bits, value]): Entry => [bits.slice(label.length), value]);
  if (below.length === 1) return b.storeRef(below[0]![1]);
  const side = (bit: string): Entry[] => below.filter(([bits]) => bits[0] === bit).map(([bits, value]) => [bits.slice(1), value]);
  return b.storeRef(edge(beginHashedCell(), side('0'), rest - 1).end()).storeRef(edge(beginHashedCell(), side('1'), rest - 1).end());
}

function commonPrefix(keys: readonly string[]): string {
  const first = keys[0]!;
  if (keys.length === 1) return first;
  let length = 0;
  while (keys.every((key) => key[length] === first[length])) length++;
  return first.slice(0, length);
}

function storeLabel(b: CellWriter, label: string, keyBits: number): void {
  const lengthBits = Math.ceil(Math.log2(keyBits + 1));
  const short = 2 + 2 * label.length;
  const long = 2 + lengthBits + label.length;
  const same = 3 + lengthBits;
  const uniform = label.length <= 1 || !label.includes(label[0] === '0' ? '1' : '0');
  if (uniform && same < Math.min(short, long)) {
    b.storeUint(0b11, 2).storeBit(label[0] === '1').storeUint(label.length, lengthBits);
  } else if (long < short) {
    b.storeUint(0b10, 2).storeUint(label.length, lengthBits);
    storeLabelBits(b, label);
  } else {
    b.storeBit(false);
    for (let i = 0; i < label.length; i++) b.storeBit(true);
    b.storeBit(false);
    storeLabelBits(b, label);
  }
}

function storeLabelBits(b: CellWriter, label: string): void {
  for (const bit of label) b.storeBit(bit === '1');
}
