/**
 * The indexer's action classifier: one action per completed trace, as ton-indexer's parser would
 * emit it. action_id = sha256(root message hash ‖ type).
 */
import { createHash } from 'node:crypto';
import type { Chain } from './chain.js';
import type { Action } from './model.js';

export function classifyTrace(chain: Chain, traceIndex: number, typeOverride?: string): Action[] {
  const trace = chain.trace(traceIndex);
  const txs = trace.txs.map((i) => chain.tx(i));
  const root = txs[0]!;
  const raw = (account: number): string => chain.population.accountAt(account).raw;
  const action = (type: string, success: boolean, details: Record<string, unknown>, accounts: number[]): Action => ({
    actionId: actionIdOf(root.inMsg?.hash ?? root.hash, typeOverride ?? type),
    trace: traceIndex,
    type: typeOverride ?? type,
    success,
    txs: trace.txs,
    details,
    accounts: [...new Set(accounts)],
  });
  const firstOut = root.outMsgs[0];

  switch (trace.kind) {
    case 'tick_tock':
      return [action('tick_tock', true, { account: raw(root.account) }, [root.account])];
    case 'ton_transfer': {
      const msg = firstOut!;
      const received = txs[1]!;
      return [
        action(
          'ton_transfer',
          !received.bounce,
          {
            source: raw(root.account),
            destination: raw(msg.destination!),
            value: msg.value.toString(),
            value_extra_currencies: {},
            comment: msg.body.kind === 'text' ? msg.body.text : null,
            encrypted: false,
          },
          [root.account, msg.destination!],
        ),
      ];
    }
    case 'jetton_transfer': {
      const body = firstOut!.body;
      if (body.kind !== 'jetton_transfer') return [];
      const senderWallet = txs[1]!;
      const receiverWalletTx = txs.find((tx) => tx.inMsg?.body.kind === 'jetton_internal_transfer');
      const wallet = chain.population.accountAt(senderWallet.account);
      const receiverWallet = receiverWalletTx?.account ?? chain.population.accountAt(body.destination).jettonWallets?.get(wallet.jettonMaster!);
      return [
        action(
          'jetton_transfer',
          !senderWallet.aborted,
          {
            asset: raw(wallet.jettonMaster!),
            sender: raw(root.account),
            receiver: raw(body.destination),
            sender_jetton_wallet: raw(senderWallet.account),
            receiver_jetton_wallet: receiverWallet === undefined ? null : raw(receiverWallet),
            amount: body.amount.toString(),
            comment: body.comment,
            is_encrypted_comment: false,
            query_id: body.queryId.toString(),
            response_destination: raw(body.responseDestination),
            custom_payload: null,
            forward_payload: null,
            forward_amount: body.forwardTonAmount.toString(),
          },
          [root.account, senderWallet.account, ...(receiverWallet === undefined ? [] : [receiverWallet]), body.destination],
        ),
      ];
    }
    case 'jetton_burn': {
      const body = firstOut!.body;
      if (body.kind !== 'jetton_burn') return [];
      const wallet = chain.population.accountAt(firstOut!.destination!);
      return [
        action(
          'jetton_burn',
          !txs[1]!.aborted,
          { owner: raw(root.account), owner_jetton_wallet: raw(wallet.index), asset: raw(wallet.jettonMaster!), amount: body.amount.toString() },
          [root.account, wallet.index, wallet.jettonMaster!],
        ),
      ];
    }
    case 'nft_transfer': {
      const body = firstOut!.body;
      if (body.kind !== 'nft_transfer') return [];
      const item = chain.population.accountAt(firstOut!.destination!);
      return [
        action(
          'nft_transfer',
          !txs[1]!.aborted,
          {
            nft_collection: raw(chain.population.collection),
            nft_item: raw(item.index),
            nft_item_index: String(item.nftIndex),
            old_owner: raw(root.account),
            new_owner: raw(body.newOwner),
            is_purchase: false,
            price: null,
            query_id: body.queryId.toString(),
            response_destination: raw(body.responseDestination),
            forward_amount: body.forwardAmount.toString(),
            custom_payload: null,
            forward_payload: null,
            comment: null,
            is_encrypted_comment: false,
            marketplace: null,
            real_prev_owner: null,
          },
          [root.account, item.index, body.newOwner, chain.population.collection],
        ),
      ];
    }
    case 'election_deposit':
    case 'election_recover': {
      const electorTx = txs[1]!;
      const reply = electorTx.outMsgs[0];
      const accepted = reply?.body.kind !== 'elector_return_stake';
      const amount = trace.kind === 'election_deposit' ? firstOut!.value - 1_000_000_000n : reply?.value ?? 0n;
      return [
        action(trace.kind, trace.kind === 'election_recover' || accepted, { stake_holder: raw(root.account), amount: amount.toString() }, [
          root.account,
          electorTx.account,
        ]),
      ];
    }
  }
}

export function actionIdOf(rootMessageHash: string, type: string): string {
  return createHash('sha256').update(Buffer.from(rootMessageHash, 'base64')).update(type).digest('base64');
}

