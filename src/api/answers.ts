/**
 * Every answer the client accepted (a 2xx whose whole body it read and passed its reader), published
 * on the diagnostics channel `chain-etl:answer` with the response's headers. Without a subscriber an
 * answer costs one property read; the chaos suite subscribes to count the answers a run really used.
 */
import { channel } from 'node:diagnostics_channel';

export const ANSWER_CHANNEL = 'chain-etl:answer';

export interface AcceptedAnswer {
  /** URL path, without the query (which may hold the API key). */
  readonly endpoint: string;
  readonly headers: Headers;
}

const answers = channel(ANSWER_CHANNEL);

export function publishAccepted(endpoint: string, headers: Headers): void {
  if (answers.hasSubscribers) answers.publish({ endpoint, headers } satisfies AcceptedAnswer);
}
