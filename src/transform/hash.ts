/** A hash the API sends in standard base64 as lower-case hex (the form explorers print). */
export function base64ToHex(hash: string): string {
  return Buffer.from(hash, 'base64').toString('hex');
}
