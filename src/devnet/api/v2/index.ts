/** The v2 gateway (`/api/v2/...` and JSON-RPC `method` names): handlers return the `result` only. */
import type { Handler } from '../../http/types.js';
import type { DevnetApi } from '../context.js';
import { accountsHandlers } from './accounts.js';
import { blockTransactionsHandlers } from './block-transactions.js';
import { blocksHandlers } from './blocks.js';
import { getMethodsHandlers } from './get-methods.js';
import { librariesHandlers } from './libraries.js';

export function v2Handlers(api: DevnetApi): Record<string, Handler> {
  return {
    ...blocksHandlers(api),
    ...blockTransactionsHandlers(api),
    ...accountsHandlers(api),
    ...librariesHandlers(api),
    ...getMethodsHandlers(api),
  };
}
