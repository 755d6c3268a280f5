import { RedirectError } from './errors.js';

/** Redirects followed within one request, at most. */
export const MAX_REDIRECTS = 5;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * A GET that follows redirects within the origin (scheme, host and port) of `url` only: the request
 * carries the API key, so a redirect to another origin fails the request instead of sending the key
 * there. Resolves to the first response that is not a redirect.
 */
export async function fetchWithinOrigin(fetchFn: typeof fetch, url: URL, init: RequestInit, endpoint: string): Promise<Response> {
  let current = url;
  for (let hops = 0; ; hops++) {
    const response = await fetchFn(current, { ...init, redirect: 'manual' });
    if (!REDIRECTS.has(response.status)) return response;
    await response.body?.cancel().catch(() => undefined);
    const status = response.status;
    const target = targetOf(response.headers.get('location'), current);
    if (target === undefined) {
      throw new RedirectError(`GET ${endpoint}: HTTP ${status} redirect without a valid Location header: not followed; check base_url`, { endpoint, status });
    }
    if (target.origin !== url.origin || target.origin === 'null') {
      const where = target.origin === 'null' ? `a ${target.protocol} URL` : target.origin;
      throw new RedirectError(
        `GET ${endpoint}: HTTP ${status} redirect to ${where}, another origin than ${url.origin}: not followed, so the API key is not sent there; if the service moved, set base_url to its new address`,
        { endpoint, status },
      );
    }
    if (hops >= MAX_REDIRECTS) {
      throw new RedirectError(`GET ${endpoint}: more than ${MAX_REDIRECTS} redirects within ${url.origin} (the last HTTP ${status}): not followed further; check base_url`, { endpoint, status });
    }
    current = target;
  }
}

function targetOf(location: string | null, from: URL): URL | undefined {
  if (location === null || location.trim() === '') return undefined;
  try {
    return new URL(location, from);
  } catch {
    return undefined;
  }
}
