/**
 * The settled tip as the reading commands (`status`, `verify`) ask for it: with no API key needed, at
 * the pipeline's rate, every request and retry within CHAIN_BUDGET_MS; when it cannot be had, why.
 */
import type { Logger } from 'pino';
import { V3Api } from '../api/v3.js';
import type { Pipeline } from '../config/index.js';
import { Landmarks, type Landmark } from '../extract/landmarks.js';
import { apiClient } from '../run/session.js';

/**
 * How long the chain is waited for, every request and retry together. Without a key the service
 * allows 1 request/s: the tip and its blocks take 1 s, and a 429 (another client on the address used
 * the allowance) costs one more before the retry, so the tip comes within about 2 s and the rest of
 * the budget places the checkpoints and the start.
 */
export const CHAIN_BUDGET_MS = 5000;
/** Retries of each request within the budget: a 429's retry waits one request spacing, another failure the backoff. */
const CHAIN_RETRIES = 3;
/** Masterchain blocks below the tip read with it (a cron warehouse is rarely further behind). */
const RECENT_BLOCKS = 100;

export type AskedTip =
  | {
      readonly tip: Landmark;
      /** The newest block the service indexes, read with the tip. */
      readonly head: Landmark | undefined;
      /** For more lookups within the budget. */
      readonly landmarks: Landmarks;
      readonly signal: AbortSignal;
    }
  | { readonly tip: undefined; readonly unknownBecause: string };

export async function askTip(pipeline: Pipeline, logger: Logger): Promise<AskedTip> {
  // The pipeline's client: its limiter spaces the requests at the pipeline's rate (1/s without a key).
  const http = apiClient(pipeline, logger, { timeoutMs: CHAIN_BUDGET_MS, maxRetries: CHAIN_RETRIES });
  const landmarks = new Landmarks(new V3Api(http));
  const signal = AbortSignal.timeout(CHAIN_BUDGET_MS);
  try {
    // The blocks below the tip come with it: a checkpoint among them costs no request to place.
    const tip = await landmarks.settledTip(pipeline.lag.mcBlocks, { signal, reach: RECENT_BLOCKS });
    return { tip, head: landmarks.head, landmarks, signal };
  } catch (error) {
    return { tip: undefined, unknownBecause: signal.aborted ? `no answer within ${CHAIN_BUDGET_MS / 1000} s` : error instanceof Error ? error.message : String(error) };
  }
}
