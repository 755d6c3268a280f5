/** A moment for people, to the second: `2026-01-01 02:29:53 UTC`. */
export function utcTime(unixSeconds: number): string {
  return `${isoSeconds(unixSeconds).slice(0, 19).replace('T', ' ')} UTC`;
}

/** A moment for programs, to the second: ISO 8601 in UTC, `2026-01-01T02:29:53Z` (every time of `status --json`). */
export function isoSeconds(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace('.000Z', 'Z');
}

/** `utcTime` of an `isoSeconds` moment. */
export function utcTimeOfIso(iso: string): string {
  return utcTime(Date.parse(iso) / 1000);
}
