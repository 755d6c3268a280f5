import { Redactor } from '../core/redact.js';
import type { Expectation } from '../options/expect.js';

const EXPECTED = 'an http(s) URL of the service root such as https://toncenter.com';
const KEY_GOES = 'the API key goes in api_key_env';

/** A checked service root (no trailing slash), or what is wrong with the text. */
export type BaseUrlResult = { readonly root: string } | { readonly problem: Expectation };

/**
 * Checks a service root such as `https://toncenter.com`. Credentials, query, fragment and a
 * token-like path segment are refused (and never echoed) so that no key rides along in a URL;
 * `/api/v2` or `/api/v3` at the end is refused because the client adds it.
 */
export function checkBaseUrl(text: string): BaseUrlResult {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: { expected: EXPECTED } };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: { expected: EXPECTED } };
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '' || /[?#]/.test(text)) {
    return { problem: { expected: EXPECTED, fix: `remove the credentials, query and fragment (${KEY_GOES})`, secret: true } };
  }
  if (url.pathname.split('/').some(tokenLike)) {
    return { problem: { expected: EXPECTED, fix: `remove the token-like segment from the path (${KEY_GOES})`, secret: true } };
  }
  const root = `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  const suffix = /\/api\/v[23]$/.exec(root)?.[0];
  if (suffix !== undefined) return { problem: { expected: EXPECTED, fix: `drop the trailing ${suffix} (the client adds it)` } };
  return { root };
}

/** What is wrong with a base URL that shows the API key or a piece of it, or undefined when it does not. */
export function keyInBaseUrl(root: string, apiKey: string | undefined, keySource: string): Expectation | undefined {
  if (apiKey === undefined || !new Redactor([apiKey]).reveals(root)) return undefined;
  return { expected: EXPECTED, fix: `it holds the API key from ${keySource}, or a piece of it: remove it (${KEY_GOES})`, secret: true };
}

/**
 * A path segment that looks like a key or token rather than a name: after percent-decoding and
 * without separators, 16 or more letters and digits that switch between lower case, upper case and
 * digits at least once per four characters (`3f9aK2…`, a UUID), or 32 or more hex digits. Words and
 * dates (`my-indexer-2024-mainnet`) switch rarely.
 */
function tokenLike(segment: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    decoded = segment;
  }
  const compact = decoded.replace(/[-_.~+/=]/g, '');
  if (compact.length < 16 || !/^[A-Za-z0-9]+$/.test(compact)) return false;
  if (compact.length >= 32 && /^[0-9a-f]+$/i.test(compact)) return true;
  let switches = 0;
  for (let i = 1; i < compact.length; i++) if (classOf(compact[i]!) !== classOf(compact[i - 1]!)) switches++;
  return switches * 4 >= compact.length;
}

function classOf(char: string): 'digit' | 'lower' | 'upper' {
  return char >= '0' && char <= '9' ? 'digit' : char === char.toLowerCase() ? 'lower' : 'upper';
}
