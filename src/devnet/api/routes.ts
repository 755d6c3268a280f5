import type { RouteTable } from '../http/types.js';
import type { DevnetApi } from './context.js';
import { v2Handlers } from './v2/index.js';
import { transactionsHandlers } from './v3/transactions.js';
import { chainHandlers } from './v3/chain.js';
import { actionHandlers } from './v3/actions.js';
import { traceHandlers } from './v3/traces.js';
import { jettonHandlers } from './v3/jettons.js';
import { nftHandlers } from './v3/nfts.js';
import { validatorHandlers } from './v3/validators.js';
import { accountHandlers } from './v3/accounts.js';
import { messageHandlers } from './v3/messages.js';
import { transactionLinkHandlers } from './v3/transaction-links.js';
import { pendingHandlers } from './v3/pending.js';
import { decodeHandlers } from './v3/decode.js';
import { v2ProxyHandlers } from './v3/v2-proxy.js';
import { dnsHandlers } from './v3/dns.js';
import { nftCollectionHandlers } from './v3/nft-collections.js';
import { nftSaleHandlers } from './v3/nft-sales.js';
import { multisigHandlers } from './v3/multisig.js';
import { stakingHandlers } from './v3/staking.js';
import { complaintHandlers } from './v3/complaints.js';
import { vestingHandlers } from './v3/vesting.js';

/** Every endpoint the devnet serves. One line per endpoint group. */
export function devnetRoutes(api: DevnetApi): RouteTable {
  return {
    v2: v2Handlers(api),
    v3: {
      ...transactionsHandlers(api),
      ...chainHandlers(api),
      ...actionHandlers(api),
      ...traceHandlers(api),
      ...jettonHandlers(api),
      ...nftHandlers(api),
      ...validatorHandlers(api),
      ...accountHandlers(api),
      ...messageHandlers(api),
      ...transactionLinkHandlers(api),
      ...pendingHandlers(api),
      ...decodeHandlers(),
      ...v2ProxyHandlers(api),
      ...dnsHandlers(api),
      ...nftCollectionHandlers(api),
      ...nftSaleHandlers(api),
      ...multisigHandlers(api),
      ...stakingHandlers(api),
      ...complaintHandlers(api),
      ...vestingHandlers(api),
    },
  };
}
