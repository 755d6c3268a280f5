import { Address, type Cell } from '@ton/core';
import type { Chain } from '../chain/chain.js';
import { buildBody, type BodySpec } from '../chain/bodies.js';
import type { Message } from '../chain/model.js';
import { normalizedExternalHash } from './normalized-hash.js';
import { stateInitCell, stateInitOf } from './state-init.js';

export type Network = 'mainnet' | 'testnet';

export const ZERO_HASH = Buffer.alloc(32).toString('base64');

/**
 * What rendering needs beside the chain: the network (user-friendly addresses carry a testnet flag)
 * and caches for the costly parts (BoC serialisation, address forms).
 */
export class RenderContext {
  private readonly friendly = new Map<number, string>();
  private readonly addresses = new Map<number, Address>();
  private readonly stateInits = new Map<number, { boc: string; hash: string }>();

  constructor(
    readonly chain: Chain,
    readonly network: Network,
  ) {}

  raw(account: number): string {
    return this.chain.population.accountAt(account).raw;
  }

  address(account: number): Address {
    let address = this.addresses.get(account);
    if (address === undefined) {
      const a = this.chain.population.accountAt(account);
      address = new Address(a.workchain, a.id);
      this.addresses.set(account, address);
    }
    return address;
  }

  /** Wallets print non-bounceable (UQ…), contracts bounceable (EQ…), as TON Center's address book does. */
  userFriendly(account: number): string {
    let text = this.friendly.get(account);
    if (text === undefined) {
      const kind = this.chain.population.accountAt(account).kind;
      const bounceable = !(kind === 'wallet' || kind === 'validator_wallet');
      text = this.address(account).toString({ urlSafe: true, bounceable, testOnly: this.network === 'testnet' });
      this.friendly.set(account, text);
    }
    return text;
  }

  body(msg: Message): { boc: string; hash: string } {
    // Serialising a BoC is most of a page's cost; a message keeps its serialisation once asked, and
    // an external one its hash_norm, made from the same cell (what that holds: docs/design.md §6).
    if (msg.serialized === undefined) {
      const cell = this.bodyCell(msg.body);
      msg.serialized = serialized(cell);
      if (msg.source === null && msg.destination !== null) msg.normalizedHash = normalizedExternalHash(this.address(msg.destination), cell);
    }
    return msg.serialized;
  }

  cell(spec: BodySpec): { boc: string; hash: string } {
    return serialized(this.bodyCell(spec));
  }

  /** `hash_norm` of an external inbound message. */
  normalizedHash(msg: Message): string {
    this.body(msg);
    if (msg.normalizedHash === undefined) throw new Error('only external inbound messages have a normalized hash');
    return msg.normalizedHash;
  }

  /** The StateInit an account is deployed with (see ./state-init.ts). */
  stateInit(account: number): { boc: string; hash: string } {
    let init = this.stateInits.get(account);
    if (init === undefined) {
      init = serialized(stateInitCell(stateInitOf(this, account)));
      this.stateInits.set(account, init);
    }
    return init;
  }

  private bodyCell(spec: BodySpec): Cell {
    return buildBody(spec, (account) => this.address(account));
  }
}

function serialized(cell: Cell): { boc: string; hash: string } {
  return { boc: cell.toBoc({ idx: false, crc32: true }).toString('base64'), hash: cell.hash().toString('base64') };
}
