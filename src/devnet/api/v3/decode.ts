/**
 * GET and POST /decode: names of opcodes (hex with or without `0x`, or decimal) and decoded message
 * bodies (base64 or hex BoCs), for the opcodes the devnet's contracts speak. An opcode the decoder
 * does not know is named `unknown`; a body it cannot read becomes `{type: "unknown", opcode}`.
 */
import { Cell } from '@ton/core';
import type { DevnetRequest, Handler } from '../../http/types.js';
import type { BodySpec } from '../../chain/bodies.js';
import { Opcode } from '../../chain/bodies.js';
import { ApiError } from '../../http/api-error.js';
import { decodedOpcodeNames, opcodeText } from '../../render/message.js';

const KIND_OF_OPCODE: ReadonlyMap<number, BodySpec['kind']> = new Map([
  [Opcode.textComment, 'text'],
  [Opcode.jettonTransfer, 'jetton_transfer'],
  [Opcode.jettonInternalTransfer, 'jetton_internal_transfer'],
  [Opcode.jettonTransferNotification, 'jetton_transfer_notification'],
  [Opcode.excesses, 'excesses'],
  [Opcode.jettonBurn, 'jetton_burn'],
  [Opcode.jettonBurnNotification, 'jetton_burn_notification'],
  [Opcode.nftTransfer, 'nft_transfer'],
  [Opcode.nftOwnershipAssigned, 'nft_ownership_assigned'],
  [Opcode.electorNewStake, 'elector_new_stake'],
  [Opcode.electorNewStakeConfirmation, 'elector_new_stake_confirmation'],
  [Opcode.electorReturnStake, 'elector_return_stake'],
  [Opcode.electorRecoverStake, 'elector_recover_stake'],
  [Opcode.electorRecoverStakeOk, 'elector_recover_stake_ok'],
]);

export function decodeHandlers(): Record<string, Handler> {
  return {
    decode: (req) => {
      const { opcodes, bodies } = decodeRequest(req);
      return { opcodes: opcodes.map((text) => nameOf(parseOpcode(text)) ?? 'unknown'), bodies: bodies.map(decodeBody) };
    },
  };
}

/** GET: repeated `opcodes` and `bodies` parameters; POST: a JSON object with those two arrays. */
function decodeRequest(req: DevnetRequest): { opcodes: string[]; bodies: string[] } {
  if (req.method === 'GET') return { opcodes: req.query.getAll('opcodes'), bodies: req.query.getAll('bodies') };
  const body = req.body as { opcodes?: unknown; bodies?: unknown } | null | undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ApiError(422, 'request body must be a JSON object');
  return { opcodes: stringList(body.opcodes, 'opcodes'), bodies: stringList(body.bodies, 'bodies') };
}

function stringList(value: unknown, name: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) throw new ApiError(422, `${name} must be an array of strings`);
  return value as string[];
}

function nameOf(opcode: number): string | undefined {
  const kind = KIND_OF_OPCODE.get(opcode);
  return kind === undefined ? undefined : decodedOpcodeNames[kind];
}

/** `0x…` is hex; digits only are decimal; bare hex (digits with a–f) is hex too. At most 32 bits; 422 otherwise. */
function parseOpcode(text: string): number {
  const value = /^0x[0-9a-f]{1,8}$/i.test(text) ? Number.parseInt(text.slice(2), 16)
    : /^\d{1,10}$/.test(text) ? Number(text)
    : /^[0-9a-f]{1,8}$/i.test(text) ? Number.parseInt(text, 16)
    : NaN;
  if (!(value <= 0xffffffff)) throw new ApiError(422, `failed to parse opcode ${JSON.stringify(text)}: expected hex (0x…) or a 32-bit decimal`);
  return value;
}

function decodeBody(text: string): Record<string, unknown> {
  let cell: Cell;
  try {
    cell = Cell.fromBoc(/^[0-9a-fA-F]+$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64'))[0]!;
  } catch {
    throw new ApiError(422, `failed to parse body: ${JSON.stringify(text.slice(0, 40))} is not a base64 or hex BoC`);
  }
  const slice = cell.beginParse();
  if (slice.remainingBits === 0 && slice.remainingRefs === 0) return { '@type': 'empty_cell' };
  if (slice.remainingBits < 32) return { type: 'unknown', opcode: null };
  const opcode = slice.loadUint(32);
  const name = nameOf(opcode);
  if (name === undefined) return { type: 'unknown', opcode: opcodeText(opcode) };
  if (opcode === Opcode.textComment) return { type: name, comment: slice.loadStringTail() };
  return slice.remainingBits >= 64 ? { type: name, query_id: slice.loadUintBig(64).toString() } : { type: name };
}
