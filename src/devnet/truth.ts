/**
 * Ground truth: exactly the objects the API returns for a dataset over the whole indexed chain, in the
 * endpoint's canonical order (ties on lt broken by hash, where the service leaves them random).
 * Rendered by the same code as the responses, so a warehouse can be compared field by field. State
 * datasets (jetton_masters, jetton_wallets, nft_items, nft_collections) are the current state in the endpoint's order, each item with its entry
 * of the response's `metadata` under `metadata`, as the snapshot stream reads it.
 */
import type { DevnetApi } from './api/context.js';
import { Refs } from './render/refs.js';
import { renderTransaction } from './render/transaction.js';
import { renderAction } from './render/action.js';
import { renderJettonBurn, renderJettonTransfer, renderNftTransfer, renderValidatorEvent } from './render/records.js';
import { renderBlock } from './render/block.js';
import { renderJettonMaster, renderJettonWallet } from './render/jetton-state.js';
import { renderMetadata } from './render/address-book.js';
import { renderNftItem } from './render/nft-item.js';
import { renderCycle, renderElection } from './render/validators.js';
import { electionStates } from './api/v3/validators.js';
import { completeTraces } from './api/v3/traces.js';
import { nftCollections } from './api/v3/nft-collections.js';
import { renderTrace } from './render/trace.js';
import { BLOCKS_PER_STEP } from './chain/chain.js';
import type { TruthDataset } from './defaults.js';

export { TRUTH_DATASETS, type TruthDataset } from './defaults.js';

export function truthRows(api: DevnetApi, dataset: TruthDataset): Record<string, unknown>[] {
  const chain = api.view.chain;
  const ctx = api.render;
  const refs = new Refs();
  const byLtThenHash = <T extends { tx: number }>(records: readonly T[]): T[] =>
    records
      .slice(0, api.view.visibleRecords(records))
      .sort((a, b) => chain.tx(a.tx).lt - chain.tx(b.tx).lt || compare(chain.tx(a.tx).hash, chain.tx(b.tx).hash));
  switch (dataset) {
    case 'transactions':
      return chain.txOrder.slice(0, api.view.visibleTxs).map((i) => renderTransaction(ctx, chain.tx(i), refs));
    case 'actions':
      return chain.actions
        .slice(0, api.view.visibleActions)
        .map((a) => renderAction(ctx, a, refs, { includeAccounts: true, includeTransactions: false }));
    case 'jetton_transfers':
      return byLtThenHash(chain.jettonTransfers)
        .filter((r) => !chain.tx(r.tx).aborted)
        .map((r) => renderJettonTransfer(ctx, r, refs));
    case 'jetton_burns':
      return byLtThenHash(chain.jettonBurns).map((r) => renderJettonBurn(ctx, r, refs));
    case 'nft_transfers':
      return byLtThenHash(chain.nftTransfers).map((r) => renderNftTransfer(ctx, r, refs));
    case 'validator_events':
      return chain.validatorEvents.slice(0, api.view.visibleRecords(chain.validatorEvents)).map((r) => renderValidatorEvent(ctx, r, refs));
    case 'blocks':
      return chain.blocks.slice(0, (api.view.indexedStep + 1) * BLOCKS_PER_STEP).map((b) => renderBlock(chain, b));
    case 'validator_cycles':
      return api.view.indexedCycles.map(({ election, start }) => renderCycle(ctx, election, start, api.view.indexedComplaints, refs, () => true));
    case 'validator_elections':
      return electionStates(api).map((state) => renderElection(ctx, state, refs, state.participants));
    case 'traces':
      return completeTraces(api).map((trace) => renderTrace(ctx, trace, refs, false));
    case 'jetton_masters':
      return chain.population.masters
        .filter((master) => chain.population.accountAt(master).status !== 'nonexist')
        .map((master) => ({ ...renderJettonMaster(ctx, master, refs), metadata: renderMetadata(ctx, [master])[ctx.raw(master)] }));
    case 'jetton_wallets':
      return chain.population.accounts
        .filter((account) => account.kind === 'jetton_wallet' && account.status !== 'nonexist')
        .map((wallet) => renderJettonWallet(ctx, wallet.index, refs));
    case 'nft_items':
      return chain.population.nftItems
        .filter((item) => chain.population.accountAt(item).status !== 'nonexist')
        .map((item) => renderNftItem(ctx, item, refs));
    case 'nft_collections':
      return nftCollections(api).map((collection) => collection.render());
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
