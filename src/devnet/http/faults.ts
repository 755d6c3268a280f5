import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ConfigError } from '../../core/errors.js';
import { pagingFaultSchema } from './paging-faults.js';

/** Probability per request, 0..1. */
const rate = z.number().min(0).max(1);
const milliseconds = z.number().int().min(0);

export const faultProfileSchema = z.strictObject({
  /** Answer 500/502/503/504 with the version's error envelope. */
  http5xx: rate.optional(),
  /** A storm starts with probability `rate`; every request for `durationMs` then gets 429. */
  storm429: z.strictObject({ rate, durationMs: milliseconds }).optional(),
  /** Hold the response `ms` (longer than a client timeout), then answer normally. */
  stall: z.strictObject({ rate, ms: milliseconds }).optional(),
  /** Reset the connection without answering. */
  reset: rate.optional(),
  /** Announce the full Content-Length, send part of the body, end the connection. */
  truncate: rate.optional(),
  /** 200 with a body that is not valid JSON. */
  malformedJson: rate.optional(),
  /** Add `x_devnet_extra` to the payload and to every object of its top-level arrays. */
  unknownFields: rate.optional(),
  /** Replace every `finality` value with `unknown_3`. */
  unknownEnum: rate.optional(),
  /**
   * Fraction of list items (chosen by their identity: hash, transaction_hash, action_id or tx_hash)
   * that the service always sends with a broken field, the same items on every request: dead letters.
   */
  invalidItems: rate.optional(),
  /** Pages that break the paging contract (paging-faults.ts). */
  paging: pagingFaultSchema.optional(),
  /** Fraction of list items and address-book entries sent with one bad value each, the same on every request (value-faults.ts). */
  badValues: rate.optional(),
  /** Log-normal extra latency per request. */
  latency: z
    .strictObject({ medianMs: z.number().positive(), p99Ms: z.number().positive() })
    .refine((l) => l.p99Ms >= l.medianMs, { message: 'p99Ms must be >= medianMs', path: ['p99Ms'] })
    .optional(),
});

export type FaultProfile = Readonly<z.infer<typeof faultProfileSchema>>;

function describeIssue(issue: z.core.$ZodIssue): string {
  const at = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    return `unknown key ${issue.keys.map((k) => JSON.stringify(at ? `${at}.${k}` : k)).join(', ')}`;
  }
  return `${at || '(top level)'}: ${issue.message}`;
}

/** Validates a parsed profile; `source` names it in the error. */
export function parseFaultProfile(value: unknown, source: string): FaultProfile {
  const parsed = faultProfileSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  const detail = first ? describeIssue(first) : parsed.error.message;
  throw new ConfigError(`invalid fault profile ${source}: ${detail}`, { cause: parsed.error });
}

export async function loadFaultProfile(path: string): Promise<FaultProfile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read fault profile ${path}: ${(err as Error).message}`, { cause: err });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`invalid fault profile ${path}: not JSON (${(err as Error).message})`, { cause: err });
  }
  return parseFaultProfile(value, path);
}
