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
    },
  };
}
