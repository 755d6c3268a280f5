import type { Expectation } from './expect.js';

const EXPECTED = 'an http(s) URL of the service root such as https://toncenter.com';

/** A checked service root (no trailing slash), or what is wrong with the text. */
export type BaseUrlResult = { readonly root: string } | { readonly problem: Expectation };

/**
 * Checks a service root such as `https://toncenter.com`. Credentials, query and fragment are
 * refused (and never echoed) so that no key rides along in a URL; `/api/v2` or `/api/v3` at the
 * end is refused because the client adds it.
 */
export function checkBaseUrl(text: string): BaseUrlResult {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: { expected: EXPECTED } };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: { expected: EXPECTED } };
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    return {
      problem: {
        expected: EXPECTED,
        fix: 'remove the credentials, query and fragment (the API key goes in api_key_env)',
        secret: true,
      },
    };
  }
  const root = `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  const suffix = /\/api\/v[23]$/.exec(root)?.[0];
  if (suffix !== undefined) return { problem: { expected: EXPECTED, fix: `drop the trailing ${suffix} (the client adds it)` } };
  return { root };
}
