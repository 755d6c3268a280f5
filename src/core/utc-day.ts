const SECONDS_PER_DAY = 86_400;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The UTC day `YYYY-MM-DD` of unix seconds: the usual `partitionBy` of a chain table. */
export function utcDay(unixSeconds: number): string {
  const days = Math.floor(unixSeconds / SECONDS_PER_DAY);
  return new Date(days * SECONDS_PER_DAY * 1000).toISOString().slice(0, 10);
}

/** The unix seconds of the day `YYYY-MM-DD` (UTC): its first and last second. */
export function utcDaySeconds(day: string): { readonly from: number; readonly to: number } {
  const from = Date.parse(`${day}T00:00:00Z`) / 1000;
  return { from, to: from + SECONDS_PER_DAY - 1 };
}

/** Whether `text` has the `YYYY-MM-DD` shape of a partition day. */
export function isUtcDay(text: unknown): text is string {
  return typeof text === 'string' && DAY.test(text);
}
