/**
 * The v2 methods beyond the first eight (test/devnet/api/v2.test.ts), called in process: answers
 * equal to the chain's values and the gateway's error answers.
 */
import { describe, expect, it } from 'vitest';
import { Address, beginCell, Cell, Dictionary, external, loadTransaction, storeMessage } from '@ton/core';
import { buildDevnetApi } from '../../../src/devnet/index.js';
import { v2Handlers } from '../../../src/devnet/api/v2/index.js';
import { QueryParams } from '../../../src/devnet/http/query-params.js';
import { apiErrorOf } from '../../support/api-error.js';
import type { Account, Block, Transaction } from '../../../src/devnet/chain/model.js';
import { FIRST_MC_SEQNO, FIRST_SHARD_SEQNO, SUBWALLET_ID } from '../../../src/devnet/chain/constants.js';

const api = buildDevnetApi({ seed: 3, blocks: 150 });
const chain = api.view.chain;
const pop = chain.population;
const handlers = v2Handlers(api);

type Json = Record<string, any>;

function get(endpoint: string, params: Record<string, string | number> = {}): any {
  const search = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
  return handlers[endpoint]!({ method: 'GET', version: 'v2', endpoint, query: new QueryParams(search), body: undefined, headers: {} });
}

function post(endpoint: string, body: Record<string, unknown>): any {
  return handlers[endpoint]!({ method: 'POST', version: 'v2', endpoint, query: QueryParams.fromFields(body), body, headers: {} });
}

function failure(fn: () => unknown): { status: number; error: string } {
  const err = apiErrorOf(fn);
  return { status: err.status, error: err.message };
}

const address = (account: Account): Address => new Address(account.workchain, account.id);
const friendly = (account: Account): string => address(account).toString({ urlSafe: true, bounceable: true });
const signed = (block: Block): string => BigInt.asIntN(64, BigInt(`0x${block.shard}`)).toString();
const historyOf = (account: Account): Transaction[] => (chain.accountTxs[account.index] ?? []).map((i) => chain.tx(i));
const wallet = pop.accounts.filter((a) => a.kind === 'wallet' && a.status === 'active').reduce((a, b) => (historyOf(b).length > historyOf(a).length ? b : a));
const head = chain.mcBlock(api.view.headStep);

describe('v2 getTransactions', () => {
  it('lists newest first from lt+hash inclusive down to to_lt exclusive, data the transaction cell', () => {
    const history = historyOf(wallet).reverse();
    expect(get('getTransactions', { address: wallet.raw }).map((t: Json) => t.transaction_id.lt)).toEqual(history.slice(0, 10).map((t) => String(t.lt)));
    const from = history[2]!;
    const page = get('getTransactions', { address: friendly(wallet), lt: from.lt, hash: Buffer.from(from.hash, 'base64').toString('hex'), to_lt: history[5]!.lt, limit: 10 });
    expect(page.map((t: Json) => t.transaction_id)).toEqual(history.slice(2, 5).map((t) => ({ '@type': 'internal.transactionId', lt: String(t.lt), hash: t.hash })));
    const parsed = loadTransaction(Cell.fromBase64(page[0].data).beginParse());
    expect([parsed.lt, parsed.now, parsed.totalFees.coins, parsed.outMessagesCount]).toEqual([BigInt(from.lt), from.now, from.totalFees, from.outMsgs.length]);
    expect(page[0]).toMatchObject({ '@type': 'ext.transaction', utime: from.now, fee: from.totalFees.toString(), storage_fee: '0', address: { account_address: friendly(wallet) } });
  });

  it('prints messages with friendly addresses, text comments as msg.dataText', () => {
    const tx = chain.txs.find((t) => pop.accountAt(t.account).kind === 'wallet' && t.inMsg?.body.kind === 'text' && t.inMsg.source !== null)!;
    const receiver = pop.accountAt(tx.account);
    const item = get('getTransactions', { address: receiver.raw, lt: tx.lt, hash: tx.hash, limit: 1 })[0];
    const msg = tx.inMsg!;
    const text = msg.body.kind === 'text' ? msg.body.text : '';
    expect(item.in_msg).toMatchObject({
      '@type': 'ext.message',
      hash: msg.hash,
      source: friendly(pop.accountAt(msg.source!)),
      destination: friendly(receiver),
      value: msg.value.toString(),
      fwd_fee: msg.fwdFee.toString(),
      created_lt: String(msg.createdLt),
      msg_data: { '@type': 'msg.dataText', text: Buffer.from(text).toString('base64') },
      message: text,
    });
  });

  it('gives an empty list for an unseen address and the gateway’s errors for bad cursors', () => {
    expect(get('getTransactions', { address: `0:${'1'.repeat(64)}` })).toEqual([]);
    const tx = historyOf(wallet)[0]!;
    expect(failure(() => get('getTransactions', { address: wallet.raw, lt: tx.lt, hash: '0'.repeat(64) }))).toEqual({ status: 500, error: 'LITE_SERVER_UNKNOWN: lt not in db' });
    expect(failure(() => get('getTransactions', { address: wallet.raw, hash: tx.hash }))).toEqual({ status: 422, error: 'lt and hash should be used together' });
    expect(failure(() => get('getTransactions', { address: wallet.raw, limit: 0 }))).toEqual({ status: 422, error: 'limit should be positive' });
    expect(failure(() => get('getTransactions', { address: 'nope' }))).toEqual({ status: 422, error: 'failed to parse address' });
  });

  it('getTransactionsStd names the transaction before the page', () => {
    const history = historyOf(wallet).reverse();
    const result = get('getTransactionsStd', { address: wallet.raw, limit: 2 });
    expect(result.transactions.map((t: Json) => [t['@type'], t.transaction_id.lt])).toEqual(history.slice(0, 2).map((t) => ['raw.transaction', String(t.lt)]));
    expect(result.previous_transaction_id).toEqual({ '@type': 'internal.transactionId', lt: String(history[2]!.lt), hash: history[2]!.hash });
  });
});

describe('v2 tryLocate*', () => {
  it('finds the receiving and the sending transaction of a message', () => {
    const tx = historyOf(wallet).find((t) => t.inMsg?.source != null)!;
    const msg = tx.inMsg!;
    const params = { source: pop.accountAt(msg.source!).raw, destination: wallet.raw, created_lt: msg.createdLt! };
    expect(get('tryLocateResultTx', params).transaction_id.hash).toBe(tx.hash);
    expect(get('tryLocateTx', params).transaction_id.hash).toBe(tx.hash);
    expect(get('tryLocateSourceTx', params).transaction_id.hash).toBe(chain.tx(msg.outTx).hash);
    expect(failure(() => get('tryLocateResultTx', { ...params, created_lt: msg.createdLt! + 1 }))).toEqual({ status: 404, error: 'transaction not found' });
    expect(failure(() => get('tryLocateSourceTx', { ...params, created_lt: -1 }))).toEqual({ status: 422, error: 'created_lt should be non-negative' });
  });
});

describe('v2 blocks', () => {
  const shardBlock = chain.blocksOfStep(40).find((b) => b.workchain === 0)!;

  it('lookupBlock finds a block by seqno, by lt and by unixtime', () => {
    const ids = (block: Block) => ({ seqno: block.seqno, root_hash: block.rootHash });
    const q = { workchain: 0, shard: signed(shardBlock) };
    expect(get('lookupBlock', { ...q, seqno: shardBlock.seqno })).toMatchObject(ids(shardBlock));
    expect(get('lookupBlock', { ...q, lt: shardBlock.startLt + 1 })).toMatchObject(ids(shardBlock));
    expect(get('lookupBlock', { ...q, unixtime: shardBlock.genUtime })).toMatchObject(ids(shardBlock));
    expect(get('lookupBlock', { workchain: -1, shard: '-9223372036854775808', unixtime: head.genUtime + 100 })).toMatchObject(ids(head));
    expect(failure(() => get('lookupBlock', { ...q, seqno: 1, lt: 1 }))).toEqual({ status: 422, error: 'exactly one of seqno, lt, unixtime should be specified' });
    expect(failure(() => get('lookupBlock', { ...q, unixtime: 5 })).status).toBe(500);
  });

  it('getBlockHeader gives the block’s lts, time and predecessor', () => {
    const header = get('getBlockHeader', { workchain: 0, shard: signed(shardBlock), seqno: shardBlock.seqno });
    expect(header).toMatchObject({ '@type': 'blocks.header', start_lt: String(shardBlock.startLt), end_lt: String(shardBlock.endLt), gen_utime: shardBlock.genUtime, global_id: -239 });
    expect(header.prev_blocks.map((b: Json) => b.seqno)).toEqual([shardBlock.seqno - 1]);
    expect(get('getBlockHeader', { workchain: -1, shard: '-9223372036854775808', seqno: FIRST_MC_SEQNO }).prev_blocks).toEqual([]);
    expect(get('getBlockHeader', { workchain: 0, shard: signed(shardBlock), seqno: FIRST_SHARD_SEQNO }).prev_blocks).toEqual([]);
  });

  it('getBlockTransactionsExt lists the same transactions as getBlockTransactions, whole', () => {
    const q = { workchain: 0, shard: signed(shardBlock), seqno: shardBlock.seqno, count: 4 };
    const short = get('getBlockTransactions', q);
    const ext = get('getBlockTransactionsExt', q);
    expect(ext.transactions.map((t: Json) => [t.account, t.transaction_id.lt, t.transaction_id.hash])).toEqual(short.transactions.map((t: Json) => [t.account, t.lt, t.hash]));
    expect(ext.incomplete).toBe(short.incomplete);
  });

  it('getConsensusBlock, getShardBlockProof and getOutMsgQueueSize name the head', () => {
    expect(get('getConsensusBlock')).toEqual({ '@type': 'ext.blocks.consensusBlock', consensus_block: head.seqno, timestamp: head.genUtime });
    const proof = get('getShardBlockProof', { workchain: 0, shard: signed(shardBlock), seqno: shardBlock.seqno });
    expect([proof.from.seqno, proof.mc_id.seqno, proof.links[0].id.seqno]).toEqual([head.seqno, shardBlock.mcSeqno, shardBlock.seqno]);
    expect(get('getOutMsgQueueSize').shards.map((s: Json) => s.id.seqno)).toEqual(chain.blocksOfStep(api.view.headStep).map((b) => b.seqno));
  });
});

describe('v2 accounts and tokens', () => {
  it('wallet information and the extended state read the wallet’s seqno and id', () => {
    const last = historyOf(wallet).at(-1)!;
    expect(get('getWalletInformation', { address: wallet.raw })).toEqual({
      '@type': 'ext.accounts.walletInformation',
      wallet: true,
      balance: wallet.balance.toString(),
      account_state: 'active',
      last_transaction_id: { '@type': 'internal.transactionId', lt: String(last.lt), hash: last.hash },
      wallet_type: 'wallet v4 r2',
      seqno: wallet.seqno,
      wallet_id: SUBWALLET_ID,
    });
    expect(get('getExtendedAddressInformation', { address: wallet.raw }).account_state).toEqual({ '@type': 'wallet.v4.accountState', wallet_id: SUBWALLET_ID, seqno: wallet.seqno });
    expect(get('getAddressBalance', { address: wallet.raw })).toBe(wallet.balance.toString());
    expect(get('getAddressState', { address: `0:${'1'.repeat(64)}` })).toBe('uninitialized');
  });

  it('token data of a jetton master, a jetton wallet and an NFT item', () => {
    const master = pop.accountAt(pop.masters[0]!);
    expect(get('getTokenData', { address: master.raw })).toMatchObject({
      contract_type: 'jetton_master',
      total_supply: master.token!.totalSupply.toString(),
      jetton_content: { type: 'onchain', data: { name: master.token!.name, symbol: master.token!.symbol, decimals: String(master.token!.decimals) } },
    });
    const jettonWallet = pop.accounts.find((a) => a.kind === 'jetton_wallet' && a.status === 'active')!;
    expect(get('getTokenData', { address: jettonWallet.raw })).toMatchObject({
      balance: (jettonWallet.jettonBalance ?? 0n).toString(),
      owner: friendly(pop.accountAt(jettonWallet.owner!)),
      jetton: friendly(pop.accountAt(jettonWallet.jettonMaster!)),
    });
    const item = pop.accounts.find((a) => a.kind === 'nft_item' && a.status === 'active')!;
    expect(get('getTokenData', { address: item.raw })).toMatchObject({ index: String(item.nftIndex), owner_address: friendly(pop.accountAt(item.owner!)), collection_address: friendly(pop.accountAt(pop.collection)) });
  });
});

describe('v2 runGetMethod (legacy stack)', () => {
  it('answers numbers in hex and cells as {bytes}, with the block and last transaction', () => {
    const result = post('runGetMethod', { address: wallet.raw, method: 'seqno', stack: [] });
    expect(result).toMatchObject({ '@type': 'smc.runResult', exit_code: 0, stack: [['num', `0x${wallet.seqno.toString(16)}`]], block_id: { seqno: head.seqno } });
    const master = pop.accountAt(pop.masters[0]!);
    const owner = pop.accountAt(pop.accounts.find((a) => a.kind === 'jetton_wallet' && a.jettonMaster === master.index)!.owner!);
    const slice = beginCell().storeAddress(address(owner)).endCell().toBoc().toString('base64');
    const [[type, value]] = post('runGetMethod', { address: master.raw, method: 'get_wallet_address', stack: [['tvm.Slice', slice]] }).stack;
    expect(type).toBe('cell');
    expect(Cell.fromBase64(value.bytes).beginParse().loadAddress().equals(address(pop.accountAt(owner.jettonWallets!.get(master.index)!)))).toBe(true);
    expect(failure(() => post('runGetMethod', { address: wallet.raw, method: 'seqno', stack: [['num', 'x']] }))).toEqual({ status: 422, error: 'Wrong type of number in stack entry' });
    expect(failure(() => post('runGetMethod', { address: wallet.raw, method: 'seqno', stack: [['builder', '']] }))).toEqual({ status: 542, error: 'Unsupported stack entry type: builder' });
  });
});

describe('v2 sendBoc, sendBocReturnHash, estimateFee', () => {
  const body = (seqno: number, validUntil = head.genUtime + 60, walletId = SUBWALLET_ID): Cell =>
    beginCell().storeBuffer(Buffer.alloc(64, 9)).storeUint(walletId, 32).storeUint(validUntil, 32).storeUint(seqno, 32).endCell();
  const boc = (cell: Cell): string => beginCell().store(storeMessage(external({ to: address(wallet), body: cell }))).endCell().toBoc().toString('base64');

  it('accepts a wallet external with the wallet’s seqno and returns its hash and normalized hash', () => {
    const message = boc(body(wallet.seqno));
    expect(post('sendBoc', { boc: message })).toEqual({ '@type': 'ok' });
    const normalized = beginCell().store(storeMessage({ info: { type: 'external-in', dest: address(wallet), importFee: 0n }, body: body(wallet.seqno) }, { forceRef: true })).endCell();
    expect(post('sendBocReturnHash', { boc: message })).toEqual({
      '@type': 'raw.extMessageInfo',
      hash: Cell.fromBase64(message).hash().toString('base64'),
      hash_norm: normalized.hash().toString('base64'),
    });
  });

  it('refuses what the wallet would refuse, as the gateway words it', () => {
    expect(failure(() => post('sendBoc', { boc: boc(body(wallet.seqno + 1)) }))).toEqual({ status: 500, error: 'Exit code 33 != 0' });
    expect(failure(() => post('sendBoc', { boc: boc(body(wallet.seqno, head.genUtime)) }))).toEqual({ status: 500, error: 'Exit code 36 != 0' });
    expect(failure(() => post('sendBoc', { boc: boc(body(wallet.seqno, head.genUtime + 60, 1)) }))).toEqual({ status: 500, error: 'Exit code 34 != 0' });
    expect(failure(() => post('sendBoc', { boc: '' }))).toEqual({ status: 422, error: 'empty boc' });
    expect(failure(() => post('sendBoc', { boc: 'bm90IGEgYm9j' }))).toEqual({ status: 422, error: 'failed to parse boc' });
  });

  it('estimates gas at the devnet’s price and forwarding at mainnet’s', () => {
    const fees = post('estimateFee', { address: wallet.raw, body: body(wallet.seqno).toBoc().toString('base64') });
    // The body: one cell of 608 bits → 400,000 + ceil((26,214,400 × 608 + 2,621,440,000) / 65,536).
    expect(fees.source_fees).toEqual({ '@type': 'fees', in_fwd_fee: 400_000 + 283_200, storage_fee: 0, gas_fee: 3_308 * 400, fwd_fee: 0 });
    expect(post('estimateFee', { address: `0:${'1'.repeat(64)}`, body: body(0).toBoc().toString('base64') }).source_fees.gas_fee).toBe(0);
  });
});

describe('v2 address forms and config', () => {
  it('detects, packs and unpacks addresses', () => {
    const raw = address(wallet).toRawString();
    expect(get('detectAddress', { address: friendly(wallet) })).toEqual({
      '@type': 'ext.utils.detectedAddress',
      raw_form: raw,
      bounceable: { '@type': 'ext.utils.detectedAddressVariant', b64: address(wallet).toString({ bounceable: true, urlSafe: false }), b64url: friendly(wallet) },
      non_bounceable: { '@type': 'ext.utils.detectedAddressVariant', b64: address(wallet).toString({ bounceable: false, urlSafe: false }), b64url: address(wallet).toString({ bounceable: false, urlSafe: true }) },
      given_type: 'friendly_bounceable',
      test_only: false,
    });
    expect(get('packAddress', { address: raw })).toBe(friendly(wallet));
    expect(get('unpackAddress', { address: friendly(wallet) })).toEqual({ workchain: 0, bounceable: true, testnet: false, addr_hex: wallet.id.toString('hex') });
    expect(failure(() => get('detectAddress', { address: 'EQ' }))).toEqual({ status: 422, error: 'failed to parse address' });
    const hash = historyOf(wallet)[0]!.hash;
    expect(get('detectHash', { hash })).toEqual({ '@type': 'ext.utils.detectedHash', b64: hash, b64url: Buffer.from(hash, 'base64').toString('base64url'), hex: Buffer.from(hash, 'base64').toString('hex') });
  });

  it('serves the config and elector addresses and the whole config as a dictionary', () => {
    const param = (id: number) => Cell.fromBase64(get('getConfigParam', { config_id: id }).config.bytes);
    expect(param(1).beginParse().loadBuffer(32).toString('hex')).toBe('3'.repeat(64));
    expect(param(0).beginParse().loadBuffer(32).toString('hex')).toBe('5'.repeat(64));
    const all = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), Cell.fromBase64(get('getConfigAll').config.bytes));
    expect(all.keys().sort((a, b) => a - b)).toEqual([0, 1, 15, 17]);
    expect(all.get(15)!.equals(param(15))).toBe(true);
    expect(failure(() => get('getConfigParam', { config_id: 999 })).status).toBe(500);
  });
});
