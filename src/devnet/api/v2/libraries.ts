/**
 * GET /getLibraries: library cells by hash. The devnet's contracts use no libraries, so every valid
 * hash is simply not found (the liteserver leaves unknown hashes out of `result`).
 */
import type { Handler } from '../../http/types.js';
import { ApiError } from '../../http/api-error.js';
import type { DevnetApi } from '../context.js';
import { parseTonHash } from './params.js';

/** Library cells the devnet knows, by standard-base64 hash: none. */
const LIBRARIES: ReadonlyMap<string, string> = new Map();

export function librariesHandlers(_api: DevnetApi): Record<string, Handler> {
  return {
    getLibraries: (req) => {
      // Repeated keys (`libraries=a&libraries=b`, a JSON array) or one comma-separated value.
      const texts = req.query.getAll('libraries').flatMap((value) => value.split(',')).filter((text) => text !== '');
      const hashes = texts.map((text) => {
        const hash = parseTonHash(text.trim());
        if (hash === undefined) throw new ApiError(422, 'failed to parse libraries');
        return hash;
      });
      const result = [...new Set(hashes)].flatMap((hash) => {
        const data = LIBRARIES.get(hash);
        return data === undefined ? [] : [{ '@type': 'smc.libraryEntry', hash, data }];
      });
      return { '@type': 'smc.libraryResult', result };
    },
  };
}
