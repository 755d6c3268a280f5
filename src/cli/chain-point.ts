import { ConfigError } from '../core/errors.js';
import { describePoint, type ChainPoint } from '../run/plan.js';

/** Parses `2024-01-01` (or any ISO date-time), `lt:N` or `mc:N`. */
export function parseChainPoint(flag: string, text: string, now = Date.now()): ChainPoint {
  const lt = /^lt:(\d+)$/.exec(text);
  if (lt) return { kind: 'lt', lt: BigInt(lt[1]!) };
  const mc = /^mc:(\d+)$/.exec(text);
  if (mc) return { kind: 'mc_seqno', mcSeqno: Number(mc[1]) };
  const ms = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(/T/.test(text) || /Z$/.test(text) ? text : `${text}T00:00:00Z`) : NaN;
  if (Number.isNaN(ms)) {
    throw new ConfigError(`${flag} ${JSON.stringify(text)} is not a chain point: use an ISO date (2024-01-01 or 2024-01-01T12:00:00Z), lt:<logical time> or mc:<masterchain seqno>`);
  }
  if (ms > now) throw new ConfigError(`${flag} ${text} is in the future: the chain has no data there yet; pick a date up to today`);
  return { kind: 'utime', utime: Math.floor(ms / 1000) };
}

/**
 * Refuses `--from` not before `--to` when both are on one scale (dates, lts or seqnos), before
 * anything is opened; points on different scales are compared on the chain by the plan.
 */
export function checkRange(from: ChainPoint, to: ChainPoint | undefined): void {
  if (to === undefined || !notBefore(from, to)) return;
  throw new ConfigError(`--from ${describePoint(from)} is not before --to ${describePoint(to)}: swap them or widen the range`);
}

function notBefore(from: ChainPoint, to: ChainPoint): boolean {
  if (from.kind === 'lt' && to.kind === 'lt') return from.lt >= to.lt;
  if (from.kind === 'utime' && to.kind === 'utime') return from.utime >= to.utime;
  if (from.kind === 'mc_seqno' && to.kind === 'mc_seqno') return from.mcSeqno >= to.mcSeqno;
  return false;
}
