/**
 * A transaction as the v2 gateway prints it: `ext.transaction` (getTransactions, tryLocate*) with
 * user-friendly message addresses, or tonlib's `raw.transaction` / `raw.transactionExt`
 * (getTransactionsStd, getBlockTransactionsExt) with `accountAddress` objects. `data` is the
 * transaction's BoC.
 */
import type { Message, Transaction } from '../../chain/model.js';
import { transactionCell } from '../../render/transaction-cell.js';
import type { DevnetApi } from '../context.js';
import { friendlyAddress } from './address-forms.js';
import { boc } from '../../render/contract-cells.js';

export type V2TransactionForm = 'ext.transaction' | 'raw.transaction' | 'raw.transactionExt';

export function v2Transaction(api: DevnetApi, tx: Transaction, form: V2TransactionForm): Record<string, unknown> {
  const ext = form === 'ext.transaction';
  const account = api.view.chain.population.accountAt(tx.account);
  const message = (msg: Message): Record<string, unknown> => (ext ? extMessage(api, msg) : rawMessage(api, msg));
  const result: Record<string, unknown> = { '@type': form, address: accountAddress(friendly(api, tx.account)) };
  if (ext || form === 'raw.transactionExt') result.account = `${account.workchain}:${account.id.toString('hex')}`;
  Object.assign(result, {
    utime: tx.now,
    data: boc(transactionCell(api.render, tx)),
    transaction_id: transactionId(tx),
    fee: tx.totalFees.toString(),
    // The devnet collects no storage fees: the whole fee is gas and forwarding.
    storage_fee: '0',
    other_fee: tx.totalFees.toString(),
  });
  // A transaction without an inbound message (tick-tock): tonlib says null; the gateway's own
  // `ext.transaction` leaves the field out (what @ton/ton's TonClient expects).
  if (tx.inMsg !== null) result.in_msg = message(tx.inMsg);
  else if (!ext) result.in_msg = null;
  result.out_msgs = tx.outMsgs.map(message);
  return result;
}

export function transactionId(tx: Transaction): Record<string, unknown> {
  return { '@type': 'internal.transactionId', lt: String(tx.lt), hash: tx.hash };
}

function accountAddress(address: string): Record<string, unknown> {
  return { '@type': 'accountAddress', account_address: address };
}

/** The gateway's form of an account; an external party is empty. */
function friendly(api: DevnetApi, account: number | null): string {
  return account === null ? '' : friendlyAddress(api, api.render.address(account));
}

function messageFields(api: DevnetApi, msg: Message): Record<string, unknown> {
  const body = api.render.body(msg);
  const external = msg.source === null;
  return {
    hash: msg.hash,
    value: external ? '0' : msg.value.toString(),
    extra_currencies: [],
    fwd_fee: external ? '0' : msg.fwdFee.toString(),
    ihr_fee: '0',
    created_lt: String(msg.createdLt ?? 0),
    body_hash: body.hash,
    msg_data: msgData(msg, body.boc),
  };
}

function extMessage(api: DevnetApi, msg: Message): Record<string, unknown> {
  const rendered: Record<string, unknown> = {
    '@type': 'ext.message',
    source: friendly(api, msg.source),
    destination: friendly(api, msg.destination),
    ...messageFields(api, msg),
  };
  if (msg.body.kind === 'text') rendered.message = msg.body.text;
  return rendered;
}

function rawMessage(api: DevnetApi, msg: Message): Record<string, unknown> {
  const { hash, ...fields } = messageFields(api, msg);
  return {
    '@type': 'raw.message',
    hash,
    source: accountAddress(friendly(api, msg.source)),
    destination: accountAddress(friendly(api, msg.destination)),
    ...fields,
  };
}

/** A text comment is `msg.dataText` (the text in base64); any other body is `msg.dataRaw` (its BoC). */
function msgData(msg: Message, bodyBoc: string): Record<string, unknown> {
  if (msg.body.kind === 'text') return { '@type': 'msg.dataText', text: Buffer.from(msg.body.text, 'utf8').toString('base64') };
  return { '@type': 'msg.dataRaw', body: bodyBoc, init_state: '' };
}
