/** A moment for people, to the second: `2026-01-01 02:29:53 UTC`. */
export function utcTime(utime: number): string {
  return `${new Date(utime * 1000).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
