import { ConfigError } from '../core/errors.js';
import type { QueryParams, QueryScalar } from '../core/query-params.js';

/**
 * Checks a service root such as `https://toncenter.com` and returns it without a trailing slash.
 * Query strings and credentials are refused so that nothing secret can ride along in a URL.
 */
export function normalizeBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch (cause) {
    throw new ConfigError(`Expected base_url to be an http(s) URL such as https://toncenter.com, got "${baseUrl}"`, {
      cause,
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`Expected base_url to use http or https, got ${url.protocol}`);
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw new ConfigError(
      'Expected base_url without credentials, query or fragment (the API key goes in its own setting)',
    );
  }
  const root = `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  const suffix = /\/api\/v[23]$/.exec(root);
  if (suffix !== null) {
    throw new ConfigError(
      `Expected base_url to be the service root, got ${root}: drop the trailing ${suffix[0]} (the client adds it)`,
    );
  }
  return root;
}

export function buildUrl(root: string, path: string, params: QueryParams): URL {
  const url = new URL(root + (path.startsWith('/') ? path : `/${path}`));
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (isList(value)) {
      for (const item of value) url.searchParams.append(key, String(item));
    } else {
      url.searchParams.append(key, String(value));
    }
  }
  return url;
}

function isList(value: QueryScalar | readonly (string | number | bigint)[]): value is readonly (string | number | bigint)[] {
  return Array.isArray(value);
}
