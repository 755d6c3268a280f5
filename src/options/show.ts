const MAX_SHOWN = 80;

/** A value from a pipeline file as a message shows it: strings quoted, containers by kind. */
export function show(value: unknown): string {
  if (value === null) return 'an empty value';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : 'a list';
  if (typeof value === 'string') {
    const text = value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value;
    return JSON.stringify(text);
  }
  if (typeof value === 'object') return Object.keys(value).length === 0 ? 'an empty map' : 'a map';
  return String(value);
}

/** Words for a list of choices: `a`, `a or b`, `a, b or c`. */
export function oneOf(choices: readonly string[]): string {
  if (choices.length <= 1) return choices.join('');
  return `${choices.slice(0, -1).join(', ')} or ${choices[choices.length - 1] ?? ''}`;
}
