/**
 * @ton/ton's TonClient, the client most of this chain's developers use, against the devnet over
 * HTTP (/api/v2/jsonRPC): every read call it makes, paging, the jetton wrappers, fee estimation and
 * sends. Values are compared with the devnet's chain, not only checked for "no error".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Address, beginCell, Cell, external, internal, storeMessage, storeMessageRelaxed, type Transaction as CoreTransaction } from '@ton/core';
import { JettonMaster, JettonWallet, TonClient } from '@ton/ton';
import type { Account, Transaction } from '../../src/devnet/chain/model.js';
import { codeCell, dataCell } from '../../src/devnet/render/contract-cells.js';
import { SUBWALLET_ID } from '../../src/devnet/chain/constants.js';
import { RenderContext } from '../../src/devnet/render/context.js';
import { startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { KEY } from '../support/test-key.js';

let devnet: TestDevnet;
let client: TonClient;

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: 11, blocks: 120 });
  client = new TonClient({ endpoint: `${devnet.url}/api/v2/jsonRPC`, apiKey: KEY });
});

afterAll(async () => {
  await devnet.close();
});

const chain = () => devnet.view.chain;
const addressOf = (account: Account): Address => new Address(account.workchain, account.id);
const accountsOf = (kind: Account['kind']): Account[] => chain().population.accounts.filter((a) => a.kind === kind && a.status === 'active');
const historyOf = (account: Account): Transaction[] => (chain().accountTxs[account.index] ?? []).map((i) => chain().tx(i));
const busiest = (kind: Account['kind']): Account => accountsOf(kind).reduce((a, b) => (historyOf(b).length > historyOf(a).length ? b : a));
const hashOf = (tx: Transaction): bigint => BigInt(`0x${Buffer.from(tx.hash, 'base64').toString('hex')}`);

/** What a transaction cell says, against the devnet's model of that transaction. */
function expectSameTransaction(parsed: CoreTransaction, tx: Transaction): void {
  const account = chain().population.accountAt(tx.account);
  const prev = tx.prevTx < 0 ? undefined : chain().tx(tx.prevTx);
  expect(parsed.hash().toString('base64')).toBe(tx.hash);
  expect(parsed.address).toBe(BigInt(`0x${account.id.toString('hex')}`));
  expect(parsed.lt).toBe(BigInt(tx.lt));
  expect(parsed.now).toBe(tx.now);
  expect(parsed.prevTransactionLt).toBe(BigInt(prev?.lt ?? 0));
  expect(parsed.prevTransactionHash).toBe(prev === undefined ? 0n : hashOf(prev));
  expect(parsed.totalFees.coins).toBe(tx.totalFees);
  expect(parsed.outMessagesCount).toBe(tx.outMsgs.length);
  expect(parsed.stateUpdate.newHash.toString('base64')).toBe(tx.stateHashAfter);
  const inMsg = tx.inMsg;
  if (inMsg === null) expect(parsed.inMessage).toBeUndefined();
  else if (inMsg.source === null) expect(parsed.inMessage?.info.type).toBe('external-in');
  else {
    const info = parsed.inMessage?.info;
    expect(info?.type).toBe('internal');
    if (info?.type === 'internal') {
      expect(info.value.coins).toBe(inMsg.value);
      expect(info.src.equals(addressOf(chain().population.accountAt(inMsg.source)))).toBe(true);
      expect(info.createdLt).toBe(BigInt(inMsg.createdLt!));
    }
  }
}

describe('TonClient against the devnet', () => {
  it('reads the masterchain head and its shards', async () => {
    const head = chain().mcBlock(devnet.view.headStep);
    const info = await client.getMasterchainInfo();
    expect(info).toEqual({ workchain: -1, shard: '-9223372036854775808', initSeqno: chain().mcBlock(0).seqno, latestSeqno: head.seqno });

    const shards = await client.getWorkchainShards(head.seqno);
    const expected = chain().blocksOfStep(devnet.view.headStep).filter((b) => b.workchain === 0);
    expect(shards).toEqual(expected.map((b) => ({ workchain: 0, shard: BigInt.asIntN(64, BigInt(`0x${b.shard}`)).toString(), seqno: b.seqno })));
  });

  it('lists a shard block’s transactions', async () => {
    const block = chain().blocks.filter((b) => b.workchain === 0 && b.txs.length > 0 && b.txs.length < 40).at(-1)!;
    const listed = await client.getShardTransactions(0, block.seqno, BigInt.asIntN(64, BigInt(`0x${block.shard}`)).toString());
    const expected = block.txs.map((i) => chain().tx(i));
    expect(listed).toHaveLength(expected.length);
    expect(new Set(listed.map((t) => `${t.account.toRawString()}/${t.lt}/${t.hash}`))).toEqual(
      new Set(expected.map((tx) => `${addressOf(chain().population.accountAt(tx.account)).toRawString()}/${tx.lt}/${tx.hash}`)),
    );
  });

  it('reads balances and contract state, with code and data', async () => {
    const wallet = busiest('wallet');
    const last = historyOf(wallet).at(-1)!;
    expect(await client.getBalance(addressOf(wallet))).toBe(wallet.balance);
    const state = await client.getContractState(addressOf(wallet));
    expect(state.state).toBe('active');
    expect(state.balance).toBe(wallet.balance);
    expect(state.code?.toString('base64')).toBe(codeCell(wallet).toBoc({ idx: false, crc32: true }).toString('base64'));
    expect(Cell.fromBoc(state.data!)[0]!.equals(dataCell(new RenderContext(chain(), 'mainnet'), wallet))).toBe(true);
    expect(state.lastTransaction).toEqual({ lt: String(last.lt), hash: last.hash });
    expect(await client.isContractDeployed(addressOf(wallet))).toBe(true);

    const unseen = new Address(0, Buffer.alloc(32, 7));
    expect(await client.getBalance(unseen)).toBe(0n);
    expect((await client.getContractState(unseen)).state).toBe('uninitialized');
    expect(await client.isContractDeployed(unseen)).toBe(false);
  });

  it('runs get methods with the legacy stack', async () => {
    const wallet = busiest('wallet');
    const seqno = await client.runMethod(addressOf(wallet), 'seqno');
    expect(seqno.stack.readNumber()).toBe(wallet.seqno);

    const master = chain().population.accountAt(chain().population.masters[0]!);
    const data = await client.runMethod(addressOf(master), 'get_jetton_data');
    expect(data.stack.readBigNumber()).toBe(master.token!.totalSupply);
    expect(data.stack.readBoolean()).toBe(true);
    // The devnet's masters revoked their admin (addr_none), which JettonMaster.getJettonData's
    // readAddress cannot read: the optional reader can.
    expect(data.stack.readAddressOpt()).toBeNull();
    expect(data.stack.readCell()).toBeInstanceOf(Cell);

    expect(await failure(client.runMethod(addressOf(wallet), 'no_such_method'))).toEqual({ status: 500, body: { ok: false, code: 500, error: 'Exit code 11 != 0', jsonrpc: '2.0', id: '1' } });
  });

  it('drives the jetton wrappers', async () => {
    const jettonWallet = accountsOf('jetton_wallet').find((a) => (a.jettonBalance ?? 0n) > 0n)!;
    const master = client.open(JettonMaster.create(addressOf(chain().population.accountAt(jettonWallet.jettonMaster!))));
    const owner = addressOf(chain().population.accountAt(jettonWallet.owner!));
    expect((await master.getWalletAddress(owner)).equals(addressOf(jettonWallet))).toBe(true);
    const wallet = client.open(JettonWallet.create(addressOf(jettonWallet)));
    expect(await wallet.getBalance()).toBe(jettonWallet.jettonBalance);
  });

  it('pages an account’s transactions to the first, each a transaction cell of the chain', async () => {
    const wallet = busiest('wallet');
    const history = historyOf(wallet);
    expect(history.length).toBeGreaterThan(7);
    const seen: CoreTransaction[] = [];
    let page = await client.getTransactions(addressOf(wallet), { limit: 3 });
    while (page.length > 0) {
      seen.push(...page);
      const last = page.at(-1)!;
      page = await client.getTransactions(addressOf(wallet), { limit: 3, lt: String(last.lt), hash: last.hash().toString('base64') });
    }
    expect(seen.map((t) => t.lt)).toEqual([...history].reverse().map((tx) => BigInt(tx.lt)));
    seen.forEach((parsed, i) => expectSameTransaction(parsed, [...history].reverse()[i]!));
  });

  it('finds one transaction and the transactions either side of a message', async () => {
    const tx = historyOf(busiest('wallet')).find((t) => t.inMsg !== null && t.inMsg.source !== null)!;
    const account = addressOf(chain().population.accountAt(tx.account));
    const found = await client.getTransaction(account, String(tx.lt), tx.hash);
    expect(found).not.toBeNull();
    expectSameTransaction(found!, tx);
    expect((await failure(client.getTransaction(account, String(tx.lt), Buffer.alloc(32).toString('base64')))).body).toMatchObject({ code: 500, error: 'LITE_SERVER_UNKNOWN: lt not in db' });

    const msg = tx.inMsg!;
    const source = addressOf(chain().population.accountAt(msg.source!));
    expectSameTransaction(await client.tryLocateResultTx(source, account, String(msg.createdLt)), tx);
    expectSameTransaction(await client.tryLocateSourceTx(source, account, String(msg.createdLt)), chain().tx(msg.outTx));
  });

  it('estimates the fees of an external message', async () => {
    const wallet = busiest('wallet');
    const body = walletBody(wallet, wallet.seqno);
    const fees = await client.estimateExternalMessageFee(addressOf(wallet), { body, initCode: null, initData: null, ignoreSignature: true });
    expect(fees['@type']).toBe('query.fees');
    expect(fees.source_fees.gas_fee).toBe(3_308 * 400);
    expect(fees.source_fees.storage_fee).toBe(0);
    expect(fees.source_fees.in_fwd_fee).toBeGreaterThan(400_000);
    expect(fees.source_fees.fwd_fee).toBeGreaterThanOrEqual(400_000);
  });

  it('sends a wallet transfer: accepted with the wallet’s seqno, refused with another, included once when the chain grows', async () => {
    const wallet = busiest('wallet');
    const to = addressOf(wallet);
    await client.sendMessage(external({ to, body: walletBody(wallet, wallet.seqno) }));
    await client.sendFile(beginCell().store(storeMessage(external({ to, body: walletBody(wallet, wallet.seqno) }))).endCell().toBoc());
    expect((await failure(client.sendMessage(external({ to, body: walletBody(wallet, wallet.seqno + 1) })))).body).toMatchObject({ code: 500, error: 'Exit code 33 != 0' });

    // The chain grows: the next block holds the transfer, once; the client reads it back.
    const seqno = wallet.seqno;
    devnet.grow(1);
    expect(wallet.seqno).toBe(seqno + 1);
    const sent = (await client.getTransactions(to, { limit: 5 })).filter((t) => t.inMessage?.info.type === 'external-in' && t.now === chain().mcBlock(devnet.view.headStep).genUtime);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.outMessages.get(0)?.info).toMatchObject({ type: 'internal', value: { coins: 1_000_000n } });
  });
});

/** The HTTP status and body of a call the devnet refused (TonClient rejects with axios' error). */
async function failure(call: Promise<unknown>): Promise<{ status: number; body: unknown }> {
  try {
    await call;
  } catch (err) {
    const response = (err as { response?: { status: number; data: unknown } }).response;
    if (response !== undefined) return { status: response.status, body: response.data };
    throw err;
  }
  throw new Error('expected the call to fail');
}

/** A wallet v4 external: signature, wallet id, valid until, seqno, then one transfer (mode 3). */
function walletBody(wallet: Account, seqno: number): Cell {
  const transfer = internal({ to: addressOf(wallet), value: 1_000_000n, bounce: false, body: 'devnet test' });
  return beginCell()
    .storeBuffer(Buffer.alloc(64, 1))
    .storeUint(SUBWALLET_ID, 32)
    .storeUint(chain().mcBlock(devnet.view.headStep).genUtime + 600, 32)
    .storeUint(seqno, 32)
    .storeUint(0, 8)
    .storeUint(3, 8)
    .storeRef(beginCell().store(storeMessageRelaxed(transfer)))
    .endCell();
}
