/** A moment for people, to the second: `2026-01-01 02:29:53 UTC`. */
export function utcTime(unixSeconds: number): string {
  return `${isoSeconds(unixSeconds).slice(0, 19).replace('T', ' ')} UTC`;
}

/** A moment for machines, to the second: `2026-01-01T02:29:53Z`. */
export function isoSeconds(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace('.000Z', 'Z');
}
