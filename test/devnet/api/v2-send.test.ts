/**
 * A wallet transfer sent with sendBoc goes into the chain's next block when the devnet grows: the
 * wallet's transaction carries the sent message (its hash the one sendBocReturnHash gave), its
 * seqno moves, the recipient is credited; a second message with the same seqno is not included.
 */
import { describe, expect, it } from 'vitest';
import { Address, beginCell, external, internal, storeMessage, storeMessageRelaxed, type Cell } from '@ton/core';
import { buildDevnetApi } from '../../../src/devnet/index.js';
import { v2Handlers } from '../../../src/devnet/api/v2/index.js';
import { SUBWALLET_ID } from '../../../src/devnet/chain/constants.js';
import { QueryParams } from '../../../src/devnet/http/query-params.js';
import { apiErrorOf } from '../../support/api-error.js';
import type { Account } from '../../../src/devnet/chain/model.js';

const api = buildDevnetApi({ seed: 9, blocks: 60 });
const chain = api.view.chain;
const handlers = v2Handlers(api);

function post(endpoint: string, body: Record<string, unknown>): any {
  return handlers[endpoint]!({ method: 'POST', version: 'v2', endpoint, query: QueryParams.fromFields(body), body, headers: {} });
}

const address = (account: Account): Address => new Address(account.workchain, account.id);

function transfer(wallet: Account, to: Account, value: bigint, comment: string): string {
  const head = chain.mcBlock(api.view.headStep);
  const out = internal({ to: address(to), value, bounce: false, body: comment });
  const body: Cell = beginCell()
    .storeBuffer(Buffer.alloc(64, 5))
    .storeUint(SUBWALLET_ID, 32)
    .storeUint(head.genUtime + 600, 32)
    .storeUint(wallet.seqno, 32)
    .storeUint(0, 8)
    .storeUint(3, 8)
    .storeRef(beginCell().store(storeMessageRelaxed(out)))
    .endCell();
  return beginCell().store(storeMessage(external({ to: address(wallet), body }))).endCell().toBoc().toString('base64');
}

describe('v2 sendBoc in a growing chain', () => {
  it('includes a sent transfer in the next block, once', () => {
    const wallets = chain.population.accounts.filter((a) => a.kind === 'wallet' && a.status === 'active' && a.balance > 10n ** 9n);
    const [wallet, recipient] = [wallets[0]!, wallets[1]!];
    const seqno = wallet.seqno;
    const first = transfer(wallet, recipient, 12_345_678n, 'from a client');
    const { hash } = post('sendBocReturnHash', { boc: first });
    post('sendBoc', { boc: transfer(wallet, recipient, 99n, 'same seqno') });
    const before = chain.txs.length;

    api.generator.advance();
    const walletTxs = chain.txs.slice(before).filter((tx) => tx.account === wallet.index && tx.inMsg?.source === null);
    expect(walletTxs).toHaveLength(1);
    const tx = walletTxs[0]!;
    expect(tx.inMsg!.hash).toBe(hash);
    expect(tx.outMsgs.map((m) => [m.destination, m.value, m.body])).toEqual([[recipient.index, 12_345_678n, { kind: 'text', text: 'from a client' }]]);
    expect(wallet.seqno).toBe(seqno + 1);
    expect(apiErrorOf(() => post('sendBoc', { boc: first })).message).toBe('Exit code 33 != 0');

    api.generator.advance();
    api.generator.advance();
    const credited = chain.txs.slice(before).find((t) => t.account === recipient.index && t.inMsg === tx.outMsgs[0]);
    expect(credited?.inMsg?.value).toBe(12_345_678n);
  });
});
