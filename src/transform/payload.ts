/**
 * Text comments carried in message bodies and jetton forward payloads: a cell starting with the
 * 32-bit opcode 0 followed by UTF-8 text ("snake" string continuing in references).
 */
import { tonCore } from './ton-core.js';

/** The opcode of a plain text comment. */
export const TEXT_COMMENT_OPCODE = 0;

/** The comment of a base64 BoC holding op 0 + text; null for any other or malformed payload. Never throws. */
export function textCommentOfBoc(boc: string | null): string | null {
  if (boc === null || boc === '') return null;
  try {
    const slice = tonCore().Cell.fromBase64(boc).beginParse();
    if (slice.remainingBits < 32 || slice.loadUint(32) !== TEXT_COMMENT_OPCODE) return null;
    return slice.loadStringTail();
  } catch {
    return null;
  }
}

/** The comment of an API `decoded` object (`{"type":"text_comment","comment":…}`); null for anything else. */
export function textCommentOfDecoded(decoded: unknown): string | null {
  if (typeof decoded !== 'object' || decoded === null) return null;
  const { type, comment } = decoded as { readonly type?: unknown; readonly comment?: unknown };
  return type === 'text_comment' && typeof comment === 'string' ? comment : null;
}

/**
 * A payload's text comment: the API's decoded form when it sent one, else decoded from the BoC.
 * `opcode`, when known, spares decoding bodies that cannot be comments.
 */
export function textComment(payload: { readonly decoded?: unknown; readonly boc: string | null; readonly opcode?: number | null }): string | null {
  const decoded = textCommentOfDecoded(payload.decoded);
  if (decoded !== null) return decoded;
  if (payload.opcode !== undefined && payload.opcode !== TEXT_COMMENT_OPCODE) return null;
  return textCommentOfBoc(payload.boc);
}
