/**
 * `badValues`: the values a broken server sends, the same on every request. A fraction of list items
 * (chosen by a stable hash of their identity, like `invalidItems`) and of address-book entries (by
 * their address) each carry one poison: an integer beyond 2^53 as a JSON number (exact as text, so it
 * must be stored exactly), a fraction where an integer belongs, a lone surrogate in a text value or a
 * JSON key, or a book entry of the wrong type. JSON numbers that `JSON.stringify` cannot write travel
 * as markers that `withRawNumbers` turns into the number text of the body.
 */
import { createHash } from 'node:crypto';
import { itemIdentity } from './fault-transforms.js';

/** The integer that was stored rounded (…992) when sent as a JSON number. */
export const BIG_INTEGER = '9007199254740993';
/** Half of a UTF-16 surrogate pair, alone: JSON can carry it (`\ud800`), UTF-8 cannot. */
export const LONE_SURROGATE = '\ud800';

export type ItemPoison = 'bigInteger' | 'fraction' | 'loneSurrogate';
export type EntryPoison = 'wrongType' | 'loneSurrogate';

/** What stands for a number `JSON.stringify` cannot write until `withRawNumbers`. */
const RAW_MARKER = '\u0000devnet-raw-number:';
/** How `JSON.stringify` writes a marker: quoted, its NUL escaped. */
const WRITTEN_MARKER = /"\\u0000devnet-raw-number:([-+.\deE]+)"/g;

type JsonObject = Record<string, unknown>;

/** Where each poison goes in an item, by the identity field that names its stream. */
interface PoisonSites {
  /** Puts BIG_INTEGER as a JSON number into an int64 value of the item; false when it has none to hold it. */
  readonly bigInteger: (item: JsonObject) => boolean;
  /** Field holding unix seconds as a JSON number. */
  readonly fraction: string;
  /** Puts a lone surrogate into a value the item's rows store as text or JSON. */
  readonly loneSurrogate: (item: JsonObject) => void;
}

const SITES: Readonly<Record<string, PoisonSites>> = {
  hash: {
    bigInteger: (item) => {
      const compute = (item.description as JsonObject | undefined)?.compute_ph as JsonObject | undefined;
      if (compute?.gas_used === undefined) return false;
      compute.gas_used = rawNumber(BIG_INTEGER);
      return true;
    },
    fraction: 'now',
    loneSurrogate: (item) => (item.orig_status = `${String(item.orig_status)}${LONE_SURROGATE}`),
  },
  action_id: {
    bigInteger: (item) => {
      item.details = { ...(item.details as JsonObject | null), x_devnet: { deep: [rawNumber(BIG_INTEGER)] } };
      return true;
    },
    fraction: 'trace_end_utime',
    loneSurrogate: (item) => (item.details = { ...(item.details as JsonObject | null), x_devnet: { [`key${LONE_SURROGATE}`]: 1 } }),
  },
  transaction_hash: {
    bigInteger: () => false,
    fraction: 'transaction_now',
    loneSurrogate: (item) => (item.custom_payload = `payload${LONE_SURROGATE}`),
  },
  tx_hash: {
    bigInteger: (item) => {
      item.election_id = rawNumber(BIG_INTEGER);
      return true;
    },
    fraction: 'utime',
    loneSurrogate: (item) => (item.type = `${String(item.type)}${LONE_SURROGATE}`),
  },
};

const ITEM_POISONS: readonly ItemPoison[] = ['bigInteger', 'fraction', 'loneSurrogate'];
const ENTRY_POISONS: readonly EntryPoison[] = ['wrongType', 'loneSurrogate'];

/** A stable draw in [0, 1) and a choice index from `key`. */
function draw(key: string): { readonly below: number; readonly pick: number } {
  const digest = createHash('sha256').update(`badValues:${key}`).digest();
  return { below: digest.readUInt32BE(0) / 2 ** 32, pick: digest.readUInt32BE(4) };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A list item as `badValues: fraction` sends it, and its poison (undefined: sent as it is). */
export function poisonItem(item: unknown, fraction: number): { readonly poison: ItemPoison | undefined; readonly item: unknown } {
  const identity = itemIdentity(item);
  const field = isObject(item) ? Object.keys(SITES).find((name) => typeof item[name] === 'string') : undefined;
  if (identity === undefined || field === undefined) return { poison: undefined, item };
  const { below, pick } = draw(identity);
  if (below >= fraction) return { poison: undefined, item };
  const sites = SITES[field]!;
  const out = structuredClone(item as JsonObject);
  let poison = ITEM_POISONS[pick % ITEM_POISONS.length]!;
  if (poison === 'bigInteger' && !sites.bigInteger(out)) poison = 'fraction';
  if (poison === 'fraction') out[sites.fraction] = rawNumber(`${String(out[sites.fraction])}.5`);
  if (poison === 'loneSurrogate') sites.loneSurrogate(out);
  return { poison, item: out };
}

/** The poison `badValues: fraction` gives the address-book entry of `address`, if any. */
export function entryPoison(address: string, fraction: number): EntryPoison | undefined {
  const { below, pick } = draw(address);
  return below < fraction ? ENTRY_POISONS[pick % ENTRY_POISONS.length] : undefined;
}

/** The address-book entry as `badValues` sends it. */
function poisonedEntry(address: string, entry: unknown, fraction: number): unknown {
  const poison = entryPoison(address, fraction);
  if (poison === undefined || !isObject(entry)) return entry;
  return poison === 'wrongType' ? { ...entry, interfaces: 7 } : { ...entry, user_friendly: `${String(entry.user_friendly)}${LONE_SURROGATE}` };
}

/** Poisons the chosen items of every top-level array of the payload and the chosen entries of its address book. */
export function withBadValues(payload: unknown, fraction: number): unknown {
  if (!isObject(payload)) return payload;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(payload)) {
    if (Array.isArray(value)) out[key] = value.map((item) => poisonItem(item, fraction).item);
    else if (key === 'address_book' && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([address, entry]) => [address, poisonedEntry(address, entry, fraction)]));
    } else out[key] = value;
  }
  return out;
}

/** A JSON number `JSON.stringify` cannot write (beyond 2^53, a fraction written as sent): a marker until `withRawNumbers`. */
function rawNumber(text: string): string {
  return `${RAW_MARKER}${text}`;
}

/** The body text with each marker of `rawNumber` written as its number. */
export function withRawNumbers(text: string): string {
  return text.includes('devnet-raw-number:') ? text.replace(WRITTEN_MARKER, '$1') : text;
}
