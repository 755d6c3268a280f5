/**
 * The keys a case's `moveKey` knobs move: each listed by the server at its true position and, while
 * the server misbehaves, at an earlier one too, as the service lists a key before it moves on. Drawn
 * inside the range the first sync must read (`range`), so that the run reads both: `rate × 4` keys
 * (one at least) of the range's last quarter, each also at the position of an item of its first
 * quarter (of another account, for a transaction): half the range apart, in different pages where it
 * holds 2,000 items or more (one page listing a key twice is refused whole).
 */
import type { Range } from '../../src/core/checkpoint/coverage.js';
import { seededRandom } from '../support/seeded-random.js';
import type { Knob } from './knobs.js';
import { staleCopy, type StreamName, type Truth, type TruthItem } from './truth.js';

export function staleCopies(truth: Truth, knobs: readonly Knob[], range: (stream: StreamName) => Range, seed: number): Map<StreamName, TruthItem[]> {
  const random = seededRandom(seed ^ 0x57a1e);
  const copies = new Map<StreamName, TruthItem[]>();
  for (const knob of knobs.filter((k) => k.kind === 'moveKey')) {
    const { from, to } = range(knob.stream);
    const items = (truth.items.get(knob.stream) ?? []).filter((item) => item.position >= from && item.position <= to);
    const list = copies.get(knob.stream) ?? [];
    for (let n = Math.max(1, Math.round(knob.rate * 4)); n > 0 && items.length > 1; n--) {
      const moved = items[Math.floor((items.length * 3) / 4 + random() * (items.length / 4))]!;
      const earlier = items
        .slice(0, Math.ceil(items.length / 4))
        .filter((item) => item.position < moved.position && (knob.stream !== 'transactions' || item.raw.account !== moved.raw.account));
      if (earlier.length === 0 || list.some((copy) => copy.key === moved.key)) continue;
      list.push(staleCopy(knob.stream, moved, earlier[Math.floor(random() * earlier.length)]!.position));
    }
    copies.set(knob.stream, list);
  }
  return copies;
}
