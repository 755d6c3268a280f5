import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './api-error.js';

export const API_VERSION_HEADER = '1.2.8-devnet';
const MAX_BODY_BYTES = 1 << 20;

/** The parsed JSON body of a POST; undefined when empty. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new ApiError(413, `request body above ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new ApiError(422, `failed to parse JSON body: ${(err as Error).message}`);
  }
}

/** First value of the `X-API-Key` header. */
export function headerKey(req: IncomingMessage): string | undefined {
  const value = req.headers['x-api-key'];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Sends a JSON text, numbered `answer` in the `X-Devnet-Answer` header. With `truncate`, announces
 * the full Content-Length, sends half the bytes and ends the connection, as a proxy that drops
 * mid-body does.
 */
export function sendJson(res: ServerResponse, status: number, text: string, truncate: boolean, answer: number): void {
  const bytes = Buffer.from(text, 'utf8');
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': bytes.length,
    'X-API-Version': API_VERSION_HEADER,
    'X-Devnet-Answer': answer,
  });
  if (!truncate) {
    res.end(bytes);
    return;
  }
  res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.socket?.end());
}
