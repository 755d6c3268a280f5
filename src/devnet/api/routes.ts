import type { RouteTable } from '../http/types.js';
import type { DevnetApi } from './context.js';
import { transactionsHandlers } from './v3/transactions.js';
import { chainHandlers } from './v3/chain.js';
import { actionHandlers } from './v3/actions.js';
import { messageHandlers } from './v3/messages.js';

/** Every endpoint the devnet serves. One line per endpoint group. */
export function devnetRoutes(api: DevnetApi): RouteTable {
  return {
    v2: {},
    v3: {
      ...transactionsHandlers(api),
      ...chainHandlers(api),
      ...actionHandlers(api),
      ...messageHandlers(api),
    },
  };
}
