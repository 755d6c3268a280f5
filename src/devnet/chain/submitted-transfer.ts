import type { BodySpec } from './bodies.js';

/**
 * A wallet transfer a client sent (sendBoc), as the chain holds it: the signed header of the wallet
 * external and its one outgoing message, to an account the chain knows. The next block includes it
 * if the wallet's seqno still matches and it has not expired, as the wallet contract would.
 */
export interface SubmittedTransfer {
  /** Hash of the external message cell the client sent (the message's hash on every API). */
  readonly hash: string;
  readonly wallet: number;
  readonly signature: Buffer;
  readonly subwalletId: number;
  readonly validUntil: number;
  readonly seqno: number;
  readonly to: number;
  readonly value: bigint;
  readonly bounce: boolean;
  readonly body: BodySpec;
}
