/**
 * What a stream's rows were loaded from: the network, the service (and a masterchain block that
 * identifies its chain) and the stream's filters. A warehouse keeps one network, and each stream
 * keeps the scope of its first load: rows of two scopes in one table could not be told apart, and a
 * widened filter would leave its new rows missing before the checkpoint.
 */
import { ConfigError } from './errors.js';

/** A masterchain block of the chain the rows came from: another chain has another hash at its seqno. */
export interface ChainAnchor {
  readonly seqno: number;
  readonly rootHash: string;
}

export interface StreamScope {
  readonly network: string;
  /** Service root the rows were last loaded from. */
  readonly service: string;
  readonly anchor?: ChainAnchor;
  /** The stream's filters under the pipeline file's names; arrays sorted; {} when there is none. */
  readonly filters: Readonly<Record<string, unknown>>;
}

/** A stream's filters as a scope records them: the file's names, sorted keys and lists, no absent keys. */
export function scopeFilters(filters: object): Record<string, unknown> {
  const entries = Object.entries(filters)
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([name, value]): [string, unknown] => [name, Array.isArray(value) ? [...(value as string[])].sort() : value])
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return Object.fromEntries(entries);
}

const OTHER_WAREHOUSE = 'sync into another warehouse (sink.path or --out)';

/** Refuses a pipeline of another network than the warehouse's. */
export function checkNetwork(stream: string, stored: StreamScope, network: string): void {
  if (stored.network === network) return;
  throw new ConfigError(
    `this warehouse holds ${stored.network} data (stream ${stream}), and the pipeline reads ${network}: one warehouse holds one network; ${OTHER_WAREHOUSE}`,
  );
}

/** Refuses filters other than those the stream's rows were loaded with. */
export function checkFilters(stream: string, stored: StreamScope, filters: Readonly<Record<string, unknown>>): void {
  if (JSON.stringify(stored.filters) === JSON.stringify(filters)) return;
  throw new ConfigError(
    `${stream}: the warehouse holds the rows of ${describeFilters(stored.filters)} (the filters it was first loaded with), and the pipeline asks for ${describeFilters(filters)}: ` +
      `rows outside the old filters would be missing before the checkpoint; restore the filters, or ${OTHER_WAREHOUSE}`,
  );
}

/** Refuses a service whose block at the anchor's seqno is another block: another chain. */
export function checkAnchor(stored: StreamScope & { anchor: ChainAnchor }, service: string, rootHash: string | undefined): void {
  if (rootHash === stored.anchor.rootHash) return;
  const found = rootHash === undefined ? 'does not have it' : `has root hash ${rootHash} there`;
  throw new ConfigError(
    `the service at ${service} serves another chain than the one this warehouse was loaded from (${stored.service}): ` +
      `masterchain block ${stored.anchor.seqno} has root hash ${stored.anchor.rootHash} in the warehouse's chain, and the service ${found}; ` +
      `point base_url at a service of the warehouse's chain, or ${OTHER_WAREHOUSE}`,
  );
}

function describeFilters(filters: Readonly<Record<string, unknown>>): string {
  const parts = Object.entries(filters).map(([name, value]) => `${name}: ${describeValue(value)}`);
  return parts.length === 0 ? 'no filter (everything)' : `{ ${parts.join(', ')} }`;
}

function describeValue(value: unknown): string {
  if (!Array.isArray(value)) return String(value);
  const shown = value.slice(0, 3).map(String);
  return `[${shown.join(', ')}${value.length > 3 ? `, … ${value.length} in all` : ''}]`;
}
