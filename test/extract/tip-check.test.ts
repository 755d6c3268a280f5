import { describe, expect, it } from 'vitest';
import type { Landmark } from '../../src/extract/landmarks.js';
import { checkTipAnswers, checkTipFollows } from '../../src/extract/tip-check.js';

const NOW = 1_790_000_000;
/** Mainnet-like block `seqno`: 1.1 × 10^6 lt and about 3 s apart, 4 lt long. */
const block = (seqno: number): Landmark => {
  const startLt = BigInt(seqno) * 1_100_000n;
  return { seqno, startLt, endLt: startLt + 4n, utime: NOW - 3 * (1000 - seqno), rootHash: `h${seqno}` };
};
const listing = (newest: number, count: number): Landmark[] => Array.from({ length: count }, (_, i) => block(newest - i));

describe('checkTipAnswers', () => {
  it('takes a head and a listing that hang together, also with the listing behind the head (lag, a replica)', () => {
    expect(() => checkTipAnswers(block(1000), listing(1000, 3), NOW)).not.toThrow();
    expect(() => checkTipAnswers(block(1000), listing(997, 2), NOW)).not.toThrow();
    expect(() => checkTipAnswers(block(1000), [], NOW)).not.toThrow();
  });

  it('names the first fault of each kind', () => {
    const cases: [Landmark, Landmark[], RegExp][] = [
      [{ ...block(1000), rootHash: 'other' }, listing(1000, 2), /disagree about masterchain block 1000: root_hash other vs h1000/],
      [{ ...block(1000), utime: NOW + 601 }, listing(1000, 2), /^\/api\/v3\/masterchainInfo dates masterchain block 1000 .+ UTC, 601 s ahead of this machine's clock/],
      [block(1000), [block(1000), block(998)], /listed masterchain block 998 after 1000: not the block before it/],
      [block(1000), [block(1000), { ...block(999), endLt: block(1000).startLt }], /but it ends at lt 1100000000, not before 1000 starts \(lt 1100000000\)/],
      [block(1000), [block(1000), { ...block(999), startLt: 1n, endLt: 2n }], /^\/api\/v3\/blocks gives masterchain block 999 the lt span 1\.\.2|block 1000 starts \d+ lt after it ends/],
      [block(1000), [block(1000), { ...block(999), endLt: 0n }], /gives masterchain block 999 an end_lt 0 before its start_lt/],
    ];
    for (const [head, listed, message] of cases) expect(() => checkTipAnswers(head, listed, NOW)).toThrow(message);
  });
});

describe('checkTipFollows', () => {
  it('lets a tip far from an old checkpoint through at mainnet speed, and refuses one 10^12 lt ahead of a near one', async () => {
    const holding = async (lt: bigint): Promise<Landmark> => block(Number(lt / 1_100_000n));
    await expect(checkTipFollows(block(2_000_000), block(10).endLt, holding)).resolves.toBeUndefined();
    const glitched = { ...block(1000), endLt: block(1000).endLt + 10n ** 12n };
    await expect(checkTipFollows(glitched, block(990).endLt, holding)).rejects.toThrow(
      /^the tip, masterchain block 1000 ending at lt 1001100000004, lies 1000011000000 lt past this warehouse's checkpoint \(lt 1089000004, in block 990\): more than 1000000000 per masterchain block/,
    );
    await expect(checkTipFollows(block(1000), block(1000).endLt, holding)).resolves.toBeUndefined();
  });
});
