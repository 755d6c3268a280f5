/**
 * Points of the chain the extractor needs: the settled tip of a run and the lt/utime of a start
 * point, read from masterchain blocks (`/masterchainInfo`, `/blocks`).
 */
import { ApiContractError } from '../api/errors.js';
import { MAX_LIMIT, type MasterchainBlock, type V3Api } from '../api/v3.js';
import { ConfigError } from '../core/errors.js';
import type { QueryParams } from '../core/query-params.js';
import { utcTime } from '../core/utc-time.js';
import { checkTipAnswers } from './tip-check.js';

/** A masterchain block as a landmark: everything at or below `endLt` / `utime` is in or before it. */
export interface Landmark {
  readonly seqno: number;
  readonly startLt: bigint;
  readonly endLt: bigint;
  readonly utime: number;
  /** The block's root hash (base64), which identifies the chain at its seqno. */
  readonly rootHash?: string;
}

export class Landmarks {
  /** Masterchain blocks read with the settled tip, by seqno: lookups among them cost no request. */
  readonly #recent = new Map<number, Landmark>();
  #first: Promise<Landmark | undefined> | undefined;
  #head: Landmark | undefined;

  constructor(private readonly v3: V3Api) {}

  /**
   * The run's frozen upper bound: the indexed head minus `lag` masterchain blocks. The same request
   * also reads the `reach` blocks below the tip (e.g. the actions overlap), for later lookups, and
   * one block below the tip at least: the answers must hang together as a chain (`checkTipAnswers`).
   */
  async settledTip(lag: number, options: { readonly signal?: AbortSignal; readonly reach?: number; readonly now?: number } = {}): Promise<Landmark> {
    const { signal } = options;
    const head = landmarkOf((await this.v3.masterchainInfo({ signal })).last);
    const seqno = head.seqno - lag;
    // Read even with lag 0, bounded by the head's start_lt: a second answer that lacks the block the
    // first named as its head comes from another replica behind the load balancer, out of step by
    // more than the lag.
    const limit = Math.min(MAX_LIMIT, lag + 2 + (options.reach ?? 0));
    const listed = await this.blocks({ end_lt: head.startLt, sort: 'desc', limit }, signal);
    checkTipAnswers(head, listed, options.now ?? Math.floor(Date.now() / 1000));
    this.#head = head;
    for (const block of listed) this.#recent.set(block.seqno, block);
    const found = this.#recent.get(seqno);
    if (found === undefined) {
      throw new ApiContractError(
        `the index reports masterchain block ${head.seqno} as its newest, but /api/v3/blocks does not show block ${seqno} (lag.mc_blocks ${lag} below it): ` +
          'the service answers from replicas that are out of step; raise lag.mc_blocks above the lag between them',
        { endpoint: '/api/v3/blocks' },
      );
    }
    return found;
  }

  /** The newest block the index served with the last settled tip; undefined before one was read. */
  get head(): Landmark | undefined {
    return this.#head;
  }

  async bySeqno(seqno: number, signal?: AbortSignal): Promise<Landmark> {
    const found = await this.withSeqno(seqno, signal);
    if (found !== undefined) return found;
    const first = await this.firstIndexed(signal);
    if (first === undefined) throw new ConfigError(`masterchain block ${seqno} is not indexed by the service: it indexes no masterchain block yet`);
    const where = seqno < first.seqno ? 'the first block it indexes is' : 'it indexes blocks from';
    throw new ConfigError(`masterchain block ${seqno} is not indexed by the service: ${where} ${describeBlock(first)}; pick a seqno from ${first.seqno} up to the tip`);
  }

  /** The oldest masterchain block the service indexes (it may have pruned older ones); asked for once. */
  firstIndexed(signal?: AbortSignal): Promise<Landmark | undefined> {
    this.#first ??= this.first({ sort: 'asc' }, signal);
    this.#first.catch(() => (this.#first = undefined));
    return this.#first;
  }

  /** The masterchain block `seqno`; undefined when the service does not index it. */
  async withSeqno(seqno: number, signal?: AbortSignal): Promise<Landmark | undefined> {
    return this.#recent.get(seqno) ?? (await this.first({ seqno }, signal));
  }

  /** The masterchain block `seqno`, or the first indexed one after it (the service may have pruned old blocks). */
  async atOrAfterSeqno(seqno: number, signal?: AbortSignal): Promise<Landmark | undefined> {
    return (await this.withSeqno(seqno, signal)) ?? (await this.firstIndexed(signal));
  }

  /** The masterchain block whose lt range holds `lt` (the last one starting at or before it). */
  async holdingLt(lt: bigint, signal?: AbortSignal): Promise<Landmark | undefined> {
    for (const block of this.#recent.values()) if (block.startLt <= lt && lt <= block.endLt) return block;
    return this.first({ end_lt: lt, sort: 'desc' }, signal);
  }

  /** The first masterchain block generated at or after `utime`; undefined when it is beyond the tip. */
  async atOrAfterUtime(utime: number, signal?: AbortSignal): Promise<Landmark | undefined> {
    // A known block at or after `utime` whose known predecessor is before it is the answer.
    for (const block of this.#recent.values()) {
      const before = this.#recent.get(block.seqno - 1);
      if (block.utime >= utime && before !== undefined && before.utime < utime) return block;
    }
    return this.first({ start_utime: utime, sort: 'asc' }, signal);
  }

  /** The first masterchain block starting at or after `lt`; undefined when it is beyond the tip. */
  async atOrAfterLt(lt: bigint, signal?: AbortSignal): Promise<Landmark | undefined> {
    return this.first({ start_lt: lt, sort: 'asc' }, signal);
  }

  private async first(query: QueryParams, signal?: AbortSignal): Promise<Landmark | undefined> {
    return (await this.blocks({ ...query, limit: 1 }, signal))[0];
  }

  private async blocks(query: QueryParams, signal?: AbortSignal): Promise<Landmark[]> {
    return (await this.v3.masterchainBlocks(query, { signal })).map(landmarkOf);
  }
}

/** `masterchain block 50000000 (2026-01-01 00:00:00 UTC)` */
export function describeBlock(block: Landmark): string {
  return `masterchain block ${block.seqno} (${utcTime(block.utime)})`;
}

function landmarkOf(block: MasterchainBlock): Landmark {
  return { seqno: block.seqno, startLt: block.start_lt, endLt: block.end_lt, utime: block.gen_utime, rootHash: block.root_hash };
}
