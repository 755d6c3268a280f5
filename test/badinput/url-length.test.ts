/**
 * Address-list filters against the URL the client keeps to (MAX_QUERY_BYTES, docs/design.md §2),
 * from the user's side, for every list filter of every registered stream: a pipeline with one
 * address more than fit is refused at load (exit 2, one line naming the stream, the filter, the
 * addresses given and the most that fit, and what to do) and writes nothing; one with as many as fit
 * syncs against the devnet, its requests carrying every address in a URL within the limit.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_QUERY_BYTES } from '../../src/api/url-limit.js';
import { allStreams } from '../../src/streams/index.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult, messageLines } from '../support/cli-result.js';
import { startOutageProxy, type OutageProxy } from '../support/outage-proxy.js';
import { startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { makeWorkspace, type Workspace } from '../support/workspace.js';

const listFilters = allStreams.flatMap((stream) =>
  Object.entries(stream.filters)
    .filter(([, schema]) => z.globalRegistry.get(schema)?.listOf !== undefined)
    .map(([filter]) => ({ stream: stream.name, filter, endpoint: stream.endpoint })),
);

/** `count` distinct raw addresses, basechain and masterchain mixed (the masterchain form is a byte longer). */
function addresses(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${i % 3 === 0 ? '-1' : '0'}:${i.toString(16).toUpperCase().padStart(64, 'A')}`);
}

describe('address-list filters and the URL length', () => {
  let devnet: TestDevnet;
  let proxy: OutageProxy;
  let work: Workspace;

  beforeAll(async () => {
    devnet = await startTestDevnet({ seed: 77, blocks: 20 });
    proxy = await startOutageProxy(devnet.url);
    work = await makeWorkspace('url-length');
  });

  afterAll(async () => {
    await proxy?.close();
    await devnet?.close();
    await work?.remove();
  });

  it('the registry declares the list filters this test walks', () => {
    expect(listFilters.map(({ stream, filter }) => `${stream}.${filter}`)).toEqual(
      expect.arrayContaining(['transactions.accounts', 'jetton_transfers.owner_addresses', 'jetton_masters.addresses', 'nft_items.owner_addresses', 'nft_collections.addresses']),
    );
  });

  /** A pipeline of `stream` alone with `filter` listing `list`; returns the file and its sink path. */
  const pipelineWith = async (stream: string, filter: string, list: readonly string[], label: string): Promise<{ file: string; sinkPath: string }> => {
    const sinkPath = work.sinkPath('duckdb', label);
    const file = await work.pipeline({ url: proxy.url, kind: 'duckdb', sinkPath, streams: [], name: `${label}.yaml` });
    await writeFile(file, (await readFile(file, 'utf8')).replace('streams: []', `streams: { ${stream}: { ${filter}: ${JSON.stringify(list)} } }`));
    return { file, sinkPath };
  };

  /** The one line a refused pipeline prints; fails unless the run exits 2 with nothing on stdout and no sink written. */
  const refusal = async (stream: string, filter: string, list: readonly string[], label: string): Promise<string> => {
    const { file } = await pipelineWith(stream, filter, list, label);
    const before = await readdir(work.dir);
    const result = await runCliInProcess(['sync', file]);
    expect(result.code, describeResult(result)).toBe(2);
    expect(result.stdout).toBe('');
    expect(await readdir(work.dir)).toEqual(before);
    const lines = messageLines(result.stderr);
    expect(lines, result.stderr).toHaveLength(1);
    return lines[0]!;
  };

  it.each(listFilters)('$stream $filter: one address more than fit is refused with exit 2; as many as fit sync', async ({ stream, filter, endpoint }) => {
    const label = `${stream}-${filter}`;
    const most = /at most (\d+) fit/.exec(await refusal(stream, filter, addresses(1024), `${label}-all`));
    expect(most).not.toBeNull();
    const fitting = Number(most![1]);
    expect(fitting).toBeGreaterThan(50);

    const line = await refusal(stream, filter, addresses(fitting + 1), `${label}-over`);
    const shape = new RegExp(
      `^chain-etl: .*${label}-over\\.yaml:\\d+:\\d+: streams\\.${stream}\\.${filter}: ${fitting + 1} addresses make each request of ${stream} too long for a URL ` +
        `\\(a query of (\\d+) bytes, the most ${MAX_QUERY_BYTES}: proxies such as nginx refuse a request line over 8 KB\\): ` +
        `at most ${fitting} fit; split them over several pipelines of at most ${fitting} addresses each$`,
    );
    const match = shape.exec(line);
    expect(match, line).not.toBeNull();
    expect(Number(match![1])).toBeGreaterThan(MAX_QUERY_BYTES);

    const list = addresses(fitting);
    const { file, sinkPath } = await pipelineWith(stream, filter, list, `${label}-fit`);
    const from = proxy.urls().length;
    const result = await runCliInProcess(['sync', file]);
    expect(result.code, describeResult(result)).toBe(0);
    expect(await readdir(work.dir)).toContain(sinkPath.slice(work.dir.length + 1));
    const sent = proxy.urls().slice(from).filter((url) => url.pathname === endpoint);
    expect(sent.length).toBeGreaterThan(0);
    for (const url of sent) {
      expect([...url.searchParams.values()].filter((value) => list.includes(value)).sort(), url.search).toEqual([...list].sort());
      expect(url.search.length - 1).toBeLessThanOrEqual(MAX_QUERY_BYTES);
    }
  });
});
