/** The v2 gateway (`/api/v2/...` and JSON-RPC `method` names): handlers return the `result` only. */
import type { Handler } from '../../http/types.js';
import type { DevnetApi } from '../context.js';
import { accountViewsHandlers } from './account-views.js';
import { accountsHandlers } from './accounts.js';
import { addressFormsHandlers } from './address-forms.js';
import { blockHeadersHandlers } from './block-headers.js';
import { blockTransactionsHandlers } from './block-transactions.js';
import { blocksHandlers } from './blocks.js';
import { configHandlers } from './config.js';
import { getMethodsHandlers } from './get-methods.js';
import { librariesHandlers } from './libraries.js';
import { sendHandlers } from './send.js';
import { tokensHandlers } from './tokens.js';
import { transactionsHandlers } from './transactions.js';

export function v2Handlers(api: DevnetApi): Record<string, Handler> {
  return {
    ...blocksHandlers(api),
    ...blockHeadersHandlers(api),
    ...blockTransactionsHandlers(api),
    ...accountsHandlers(api),
    ...accountViewsHandlers(api),
    ...tokensHandlers(api),
    ...transactionsHandlers(api),
    ...librariesHandlers(api),
    ...getMethodsHandlers(api),
    ...sendHandlers(api),
    ...addressFormsHandlers(api),
    ...configHandlers(api),
  };
}
