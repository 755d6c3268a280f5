/** What the devnet command line needs before anything is generated: defaults and dataset names. */

export const DEVNET_DEFAULTS = { seed: 7, blocks: 2000, indexerLag: 0, classifyDelay: 2 } as const;

export const TRUTH_DATASETS = [
  'transactions',
  'actions',
  'jetton_transfers',
  'jetton_burns',
  'nft_transfers',
  'validator_events',
  'blocks',
  'validator_cycles',
  'validator_elections',
  'traces',
  'jetton_masters',
  'jetton_wallets',
  'nft_items',
  'nft_collections',
] as const;

export type TruthDataset = (typeof TRUTH_DATASETS)[number];
