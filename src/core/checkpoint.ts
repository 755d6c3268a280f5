/** A checkpoint row's text: the last committed position of a stream on its axis. */
export function encodeCheckpoint(position: bigint): string {
  return JSON.stringify({ position: position.toString() });
}

export function decodeCheckpoint(text: string): bigint {
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed === 'object' && parsed !== null && 'position' in parsed && typeof parsed.position === 'string' && /^-?\d+$/.test(parsed.position)) {
    return BigInt(parsed.position);
  }
  throw new Error(`unreadable checkpoint ${JSON.stringify(text)}: expected {"position":"<integer>"}`);
}
