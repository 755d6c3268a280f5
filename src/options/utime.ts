const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Unix seconds of an ISO 8601 date or date-time such as `2024-01-01`, `2024-01-01T12:00`,
 * `2024-01-01T12:00:00Z` or `2024-01-01T14:00:00+02:00`. Without an offset the time is UTC.
 * Returns undefined for text that is not such a date or names a day or time that does not exist.
 */
export function isoToUnixSeconds(text: string): number | undefined {
  const match = ISO.exec(text);
  if (match === null) return undefined;
  const [, year, month, day, hour = '00', minute = '00', second = '00', zone = 'Z'] = match;
  const offset = zone === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const ms = Date.parse(`${year}-${month}-${day}T${hour}:${minute}:${second}${offset}`);
  if (Number.isNaN(ms)) return undefined;
  const calendar = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (calendar.getUTCMonth() !== Number(month) - 1 || calendar.getUTCDate() !== Number(day)) return undefined;
  return Math.floor(ms / 1000);
}
