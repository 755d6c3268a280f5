/** Edit distance (insertions, deletions, substitutions) between two strings. */
export function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The valid name closest to `name`, if it is close enough to be a likely typo. */
export function nearest(name: string, valid: readonly string[]): string | undefined {
  const wanted = name.toLowerCase().replaceAll('-', '_');
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of valid) {
    const distance = levenshtein(wanted, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
}

/** How a closed map names what it holds, for "unknown …" messages. */
export interface Naming {
  /** What one key is, e.g. `key`, `stream`, `filter`. */
  readonly noun: string;
  /** Where the map sits, appended after the name, e.g. `in rate`. @default none */
  readonly where?: string;
  /** Heading of the list of valid names, e.g. `keys`, `streams`, `rate keys`. */
  readonly listName: string;
  /** Completes "expected …" when the value is not a map at all. @default `a map of <listName> (<names>)` */
  readonly expected?: string;
}

/** `unknown stream "transactons": did you mean "transactions"? (streams: transactions, …)` */
export function unknownName(name: string, valid: readonly string[], naming: Naming): string {
  const guess = nearest(name, valid);
  const what = `unknown ${naming.noun} ${JSON.stringify(name)}${naming.where === undefined ? '' : ` ${naming.where}`}`;
  const fix = guess === undefined ? 'remove it or use a valid one' : `did you mean ${JSON.stringify(guess)}?`;
  return `${what}: ${fix} (${naming.listName}: ${valid.join(', ')})`;
}
