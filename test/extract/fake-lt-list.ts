/** A fake lt-paged list for pager tests: a stream of `{ id, pos }` items, and a V3Api double serving it. */
import { z } from 'zod';
import type { BodyReader } from '../../src/api/body.js';
import { ltPage, type V3Api } from '../../src/api/v3.js';
import type { QueryParams } from '../../src/core/query-params.js';
import type { PageRequest, StreamDefinition } from '../../src/core/stream.js';

export interface FakeItem {
  readonly id: string;
  readonly pos: bigint;
}

/** Items `{ id, pos }` (pos a decimal string on the wire) at `/api/v3/fake`, paged by lt as the real streams are. */
export const fakeStream: StreamDefinition<FakeItem, unknown> = {
  name: 'fake',
  doc: 'test',
  filters: {},
  tables: [],
  axis: 'lt',
  endpoint: '/api/v3/fake',
  itemsKey: 'items',
  query: (_filters, page) => ltPage(page),
  metadata: true,
  item: z.object({ id: z.string(), pos: z.string().regex(/^\d+$/).transform(BigInt) }),
  rescansOverlap: false,
  position: (item) => item.pos,
  key: (item) => item.id,
  toRows: () => new Map(),
};

/**
 * A V3Api double whose list call answers the lt page a stream's query asks for (`start_lt`,
 * `end_lt`, `limit`, `offset` as `ltPage` sends them) with `answer`'s response, handed as bytes to
 * the reader the call carries, as the HTTP client does.
 */
export function ltListApi(answer: (request: PageRequest) => Record<string, unknown>): V3Api {
  const listRead = async <T>(_endpoint: string, query: QueryParams, read: BodyReader<T>): Promise<T> => {
    const response = answer({ from: BigInt(String(query.start_lt)), to: BigInt(String(query.end_lt)), limit: Number(query.limit), offset: Number(query.offset) });
    return read(new TextEncoder().encode(JSON.stringify(response)));
  };
  return { listRead } as unknown as V3Api;
}
