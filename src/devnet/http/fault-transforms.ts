import { createHash } from 'node:crypto';
export const UNKNOWN_FIELD = 'x_devnet_extra';
export const UNKNOWN_ENUM = 'unknown_3';
/** What an invalid item carries in place of its logical time. */
export const INVALID_VALUE = 'not-a-number';

/** Fields that identify a list item of the streams' endpoints, in the order they are looked for. */
const IDENTITY_FIELDS = ['hash', 'transaction_hash', 'action_id', 'tx_hash'] as const;
/** Fields an invalid item has broken: the first one present (every stream validates its lt or time). */
const BROKEN_FIELDS = ['lt', 'transaction_lt', 'trace_end_lt', 'tx_lt'] as const;

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function tag(value: unknown): unknown {
  return isObject(value) ? { ...value, [UNKNOWN_FIELD]: 'unknown' } : value;
}

/** Adds an unknown field to the payload and to every object of its top-level arrays. */
export function withUnknownFields(payload: unknown): unknown {
  if (Array.isArray(payload)) return payload.map(tag);
  if (!isObject(payload)) return payload;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(payload)) out[k] = Array.isArray(v) ? v.map(tag) : v;
  return tag(out);
}

/** The identity `invalidItems` decides by: the first identity field the item has, if any. */
export function itemIdentity(item: unknown): string | undefined {
  if (!isObject(item)) return undefined;
  const field = IDENTITY_FIELDS.find((name) => typeof item[name] === 'string');
  return field === undefined ? undefined : (item[field] as string);
}

/** Whether `invalidItems: fraction` breaks this item: a stable hash of its identity, below the fraction. */
export function isInvalidItem(item: unknown, fraction: number): boolean {
  const identity = itemIdentity(item);
  return identity !== undefined && createHash('sha256').update(identity).digest().readUInt32BE(0) / 2 ** 32 < fraction;
}

/** Breaks the lt (or time) of the items `isInvalidItem` picks, in every top-level array of the payload. */
export function withInvalidItems(payload: unknown, fraction: number): unknown {
  if (!isObject(payload)) return payload;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(payload)) out[k] = Array.isArray(v) ? v.map((item) => (isInvalidItem(item, fraction) ? broken(item as JsonObject) : item)) : v;
  return out;
}

function broken(item: JsonObject): JsonObject {
  const field = BROKEN_FIELDS.find((name) => name in item);
  return field === undefined ? item : { ...item, [field]: INVALID_VALUE };
}

/** Replaces every `finality` value, at any depth, with an enum value no client knows. */
export function withUnknownEnum(payload: unknown): { payload: unknown; replaced: number } {
  let replaced = 0;
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (!isObject(value)) return value;
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === 'finality') replaced += 1;
      out[k] = k === 'finality' ? UNKNOWN_ENUM : visit(v);
    }
    return out;
  };
  return { payload: visit(payload), replaced };
}

/** Drops the closing bracket: every JSON object or array text becomes invalid. */
export function malformJson(text: string): string {
  return text.slice(0, -1);
}

const FAULT_TEXTS: Readonly<Record<number, string>> = {
  429: 'Ratelimit exceeded',
  500: 'internal server error',
  502: 'bad gateway',
  503: 'service unavailable',
  504: 'LITE_SERVER_NETWORK timeout',
};

/** The error text the real service (or its gateway) sends with an injected status. */
export function faultText(status: number): string {
  return FAULT_TEXTS[status] ?? 'internal server error';
}
