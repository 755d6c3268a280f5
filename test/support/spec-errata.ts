/**
 * The errata of the two official OpenAPI files (copies in test/fixtures/specs): where the real
 * service answers something the published schema refuses, or the schema is one no answer can meet.
 * The v3 validator (openapi.ts) and the v2 validator (openapi-v2.ts) patch a COPY of their file for
 * exactly these, and nothing else; each says what the patch accepts and the evidence for it. Examples
 * named here are in test/fixtures/examples.
 */
export interface SpecErratum {
  /** P… for the v3 file, E… for the v2 file; code and tests name the patch by it. */
  readonly id: string;
  readonly spec: 'v3' | 'v2';
  /** What the patched copy accepts, in one line. */
  readonly accepts: string;
  readonly evidence: string;
}

export const SPEC_ERRATA = [
  {
    id: 'P1',
    spec: 'v3',
    accepts: 'every object property is nullable',
    evidence:
      'the service sends null where the spec says string: `in_msg`, `source` of external messages, `address_book[…].domain` ' +
      '(v3-transactions.mainnet.2026-07.json fails the published file with "must be string: got null")',
  },
  {
    id: 'P2',
    spec: 'v3',
    accepts: 'FinalityState is a string (pending|confirmed|finalized), not an integer',
    evidence: 'the spec says integer 0..2; mainnet sends `"finality": "finalized"` (v3-transactions.mainnet.2026-07.json)',
  },
  {
    id: 'P3',
    spec: 'v3',
    accepts: 'Message.opcode is a hex string 0x########, not an integer',
    evidence: 'the spec says integer; mainnet sends e.g. `"opcode": "0x0f8a7ea5"` (v3-traces.mainnet.2025-09.docs-pr493.json)',
  },
  {
    id: 'P4',
    spec: 'v3',
    accepts: 'runGetMethod answers {gas_used, exit_code, stack}, not the request schema',
    evidence:
      "the spec gives POST /runGetMethod's 200 the request's schema (V2RunGetMethodRequest); ton-index-go's own model " +
      '`V2RunGetMethodResult` (index/models, ton-indexer master eb9fbfa) is what its handler returns, and its swag ' +
      'annotation names the request struct, which is where the published mistake comes from',
  },
  {
    id: 'E1',
    spec: 'v2',
    accepts: 'TransactionExt (allOf of two closed schemas) is TransactionStd plus account, @type raw.transactionExt',
    evidence:
      '`TransactionExt` is `allOf: [TransactionStd, {account}]` with both parts closed (`additionalProperties: false`): ' +
      '`account` breaks the first, every other field the second, so no object validates; the service sends the ' +
      'TransactionStd fields plus `account` with `"@type": "raw.transactionExt"` (v2-getBlockTransactionsExt.mainnet.2026-02.page1.docs-pr1868.json)',
  },
  {
    id: 'E2',
    spec: 'v2',
    accepts: 'TransactionStd.in_msg may be null',
    evidence: 'a transaction without an inbound message (tick-tock) has `"in_msg": null` (first item of v2-getBlockTransactionsExt.mainnet.2026-02.page1.docs-pr1868.json)',
  },
  {
    id: 'E3',
    spec: 'v2',
    accepts: 'error texts enumerated with <N>/<value> placeholders carry the value',
    evidence:
      'the file enumerates `Exit code <N> != 0`, `Failed to parse int: <value>`; the service sends the value ' +
      '(`Exit code 11 != 0`, as the file’s own description of 500 says). A placeholder matches any text without spaces',
  },
  {
    id: 'E4',
    spec: 'v2',
    accepts: 'a jsonRPC answer follows its method path schema, not TonlibResponse',
    evidence:
      '`/jsonRPC` answers `TonlibResponse`, whose `result` is declared an object; getAddressBalance, getAddressState, ' +
      'packAddress and getTransactions answer a string or an array (their paths’ own schemas), the same over jsonRPC',
  },
] as const satisfies readonly SpecErratum[];

/** The errata of one file, as `id: accepts` lines in the order above. */
export function errataOf(spec: SpecErratum['spec']): string[] {
  return SPEC_ERRATA.filter((erratum) => erratum.spec === spec).map((erratum) => `${erratum.id}: ${erratum.accepts}`);
}
