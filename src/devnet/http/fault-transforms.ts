export const UNKNOWN_FIELD = 'x_devnet_extra';
export const UNKNOWN_ENUM = 'unknown_3';

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

/** Replaces every `finality` value, at any depth, with an enum value no client knows. */
export function withUnknownEnum(payload: unknown): unknown {
  if (Array.isArray(payload)) return payload.map(withUnknownEnum);
  if (!isObject(payload)) return payload;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(payload)) out[k] = k === 'finality' ? UNKNOWN_ENUM : withUnknownEnum(v);
  return out;
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
