/** Stand-in for the API key wherever text from outside (server bodies, library errors) might echo it. */
export const REDACTED = '[redacted]';

export function redact(text: string, secret: string | undefined): string {
  return secret === undefined ? text : text.split(secret).join(REDACTED);
}

/**
 * Returns `err` itself when no part of it mentions the secret, else a plain copy (name, code,
 * message, stack, cause chain) with the secret replaced, so that the copy can be kept as `cause`.
 */
export function redactError(err: unknown, secret: string | undefined, depth = 0): unknown {
  if (secret === undefined || !mentions(err, secret, 0)) return err;
  if (!(err instanceof Error) || depth > 8) return redact(String(err), secret);
  const copy = new Error(redact(err.message, secret), {
    cause: err.cause === undefined ? undefined : redactError(err.cause, secret, depth + 1),
  });
  copy.name = err.name;
  copy.stack = redact(err.stack ?? '', secret);
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') Object.assign(copy, { code });
  return copy;
}

function mentions(value: unknown, secret: string, depth: number): boolean {
  if (depth > 8 || value === null || value === undefined) return false;
  if (typeof value === 'string') return value.includes(secret);
  if (!(value instanceof Error)) return safeJson(value).includes(secret);
  return (
    value.message.includes(secret) ||
    (value.stack ?? '').includes(secret) ||
    safeJson(value).includes(secret) ||
    mentions(value.cause, secret, depth + 1)
  );
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? '';
  } catch {
    return String(value);
  }
}
