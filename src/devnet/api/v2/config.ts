/**
 * GET /getConfigParam, /getConfigAll: the blockchain configuration as cells (block.tlb ConfigParam
 * layouts). The devnet holds the parameters its chain implies: the config and elector addresses
 * (0, 1), election timings (15) and stake limits (17), with mainnet's values where the chain has none.
 */
import { beginCell, Dictionary, type Cell } from '@ton/core';
import type { Handler } from '../../http/types.js';
import { CONFIG_RAW, ELECTOR_RAW, TON } from '../../chain/constants.js';
import { ApiError } from '../../http/api-error.js';
import type { DevnetApi } from '../context.js';
import { boc } from '../../render/contract-cells.js';
import { int32Param, seqnoParam } from './params.js';
import { mcBlockAt } from './block-id.js';

const accountId = (raw: string): Buffer => Buffer.from(raw.split(':')[1]!, 'hex');

const PARAMS: ReadonlyMap<number, Cell> = new Map([
  [0, beginCell().storeBuffer(accountId(CONFIG_RAW)).endCell()],
  [1, beginCell().storeBuffer(accountId(ELECTOR_RAW)).endCell()],
  // validators_elected_for, elections_start_before, elections_end_before, stake_held_for
  [15, beginCell().storeUint(65_536, 32).storeUint(32_768, 32).storeUint(8_192, 32).storeUint(32_768, 32).endCell()],
  // min_stake, max_stake, min_total_stake, max_stake_factor
  [17, beginCell().storeCoins(300_000n * TON).storeCoins(10_000_000n * TON).storeCoins(75_000_000n * TON).storeUint(3 * 65_536, 32).endCell()],
]);

export function configHandlers(api: DevnetApi): Record<string, Handler> {
  const atSeqno = (seqno: number | undefined): void => {
    if (seqno !== undefined) mcBlockAt(api, seqno);
  };
  return {
    getConfigParam: (req) => {
      const id = int32Param(req.query, 'config_id', true);
      if (id < 0) throw new ApiError(422, 'param should be non-negative');
      atSeqno(seqnoParam(req.query, false));
      const cell = PARAMS.get(id);
      if (cell === undefined) throw new ApiError(500, `LITE_SERVER_UNKNOWN: config param ${id} not found`);
      return configInfo(cell);
    },
    getConfigAll: (req) => {
      atSeqno(seqnoParam(req.query, false));
      const dict = Dictionary.empty(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
      for (const [id, cell] of PARAMS) dict.set(id, cell);
      return configInfo(beginCell().storeDictDirect(dict).endCell());
    },
  };
}

function configInfo(cell: Cell): Record<string, unknown> {
  return { '@type': 'configInfo', config: { '@type': 'tvm.cell', bytes: boc(cell) } };
}
