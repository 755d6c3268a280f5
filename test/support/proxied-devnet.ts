/**
 * A devnet that knows `KEY` (mainnet, 1000 requests/s) behind a misbehaving proxy, with a
 * workspace: started before a test file's tests, closed after them.
 */
import { afterAll, beforeAll } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { startMisbehavingServer, type MisbehavingServer } from './misbehaving-server.js';
import { KEY } from './test-key.js';
import { makeWorkspace, type Workspace } from './workspace.js';

export interface ProxiedDevnet {
  readonly work: Workspace;
  readonly devnet: Devnet;
  readonly proxy: MisbehavingServer;
}

/** Registers the hooks; `started` gets the three once they run (before the file's first test). */
export function useProxiedDevnet(label: string, chain: { readonly seed: number; readonly blocks: number }, started: (setup: ProxiedDevnet) => void): void {
  const setup: { -readonly [K in keyof ProxiedDevnet]?: ProxiedDevnet[K] } = {};
  beforeAll(async () => {
    setup.work = await makeWorkspace(label);
    setup.devnet = await startDevnet({ seed: chain.seed, blocks: chain.blocks, keys: new Map([[KEY, 'mainnet']]), keyRps: 1000 });
    setup.proxy = await startMisbehavingServer(setup.devnet.url);
    started(setup as ProxiedDevnet);
  });
  afterAll(async () => {
    await setup.proxy?.close();
    await setup.devnet?.close();
    await setup.work?.remove();
  });
}
