/** The two public deployments of the Chain Data API. */
export const NETWORKS = ['mainnet', 'testnet'] as const;

export type Network = (typeof NETWORKS)[number];

/** Service roots (the client appends `/api/v2/…` or `/api/v3/…`). */
export const DEFAULT_BASE_URLS: Readonly<Record<Network, string>> = {
  mainnet: 'https://toncenter.com',
  testnet: 'https://testnet.toncenter.com',
};

export function isNetwork(value: string): value is Network {
  return (NETWORKS as readonly string[]).includes(value);
}
