import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/devnet/http/api-error.js';
import { QueryParams } from '../../../src/devnet/http/query-params.js';
import { getJson, MAINNET_KEY, startServer } from './helpers.js';

const q = (search: string): QueryParams => new QueryParams(new URLSearchParams(search));

function error422(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(422);
    return (err as ApiError).message;
  }
  throw new Error('expected an ApiError 422');
}

describe('QueryParams', () => {
  it('reads repeated keys as arrays and never splits a comma-separated value', () => {
    const params = q('account=A&account=B&hash=x,y');
    expect(params.getAll('account')).toEqual(['A', 'B']);
    expect(params.get('account')).toBe('A');
    expect(params.getAll('hash')).toEqual(['x,y']);
    expect(params.has('hash')).toBe(true);
    expect(params.has('lt')).toBe(false);
    expect(params.get('lt')).toBeUndefined();
    expect(params.names()).toEqual(['account', 'hash']);
  });

  it('builds repeated keys from JSON fields, keeping the URL query', () => {
    const params = QueryParams.fromFields(
      { libraries: ['a', 'b'], seqno: 5, archival: true, stack: [['num', '0x1']], none: null },
      new URLSearchParams('workchain=0'),
    );
    expect(params.getAll('libraries')).toEqual(['a', 'b']);
    expect(params.int('seqno')).toBe(5);
    expect(params.bool('archival')).toBe(true);
    expect(params.get('stack')).toBe('["num","0x1"]');
    expect(params.has('none')).toBe(false);
    expect(params.int('workchain')).toBe(0);
  });

  it('parses integers with range checks and Go-style parse errors naming the parameter', () => {
    expect(q('workchain=-1').int('workchain', { min: -1, max: 0 })).toBe(-1);
    expect(q('').int('seqno')).toBeUndefined();
    expect(q('seqno=').int('seqno')).toBeUndefined();
    expect(error422(() => q('workchain=abc').int('workchain'))).toBe(
      'failed to parse workchain: strconv.ParseInt: parsing "abc": invalid syntax',
    );
    expect(error422(() => q('seqno=1.5').int('seqno'))).toBe(
      'failed to parse seqno: strconv.ParseInt: parsing "1.5": invalid syntax',
    );
    expect(error422(() => q('seqno=99999999999999999999').int('seqno'))).toBe(
      'failed to parse seqno: strconv.ParseInt: parsing "99999999999999999999": value out of range',
    );
    expect(error422(() => q('').int('seqno', { required: true }))).toBe('missing required parameter: seqno');
    expect(error422(() => q('workchain=1').int('workchain', { max: 0 }))).toBe('workchain is not allowed: 1 > 0');
  });

  it('parses 64-bit values as bigint', () => {
    expect(q('start_lt=18446744073709551615').bigint('start_lt')).toBe(18446744073709551615n);
    expect(q('').bigint('end_lt')).toBeUndefined();
    expect(error422(() => q('lt=12a').bigint('lt'))).toBe('failed to parse lt: strconv.ParseInt: parsing "12a": invalid syntax');
    expect(error422(() => q('lt=-1').bigint('lt', { min: 0n }))).toBe('lt is not allowed: -1 < 0');
    expect(error422(() => q('').bigint('lt', { required: true }))).toBe('missing required parameter: lt');
  });

  it('parses booleans as Go does and enums by exact value', () => {
    expect(['1', 't', 'true', 'TRUE'].map((v) => q(`x=${v}`).bool('x'))).toEqual([true, true, true, true]);
    expect(['0', 'f', 'false', 'False'].map((v) => q(`x=${v}`).bool('x'))).toEqual([false, false, false, false]);
    expect(q('').bool('include_accounts')).toBeUndefined();
    expect(error422(() => q('include_accounts=yes').bool('include_accounts'))).toBe(
      'failed to parse include_accounts: strconv.ParseBool: parsing "yes": invalid syntax',
    );
    expect(q('direction=in').enumOf('direction', ['in', 'out'])).toBe('in');
    expect(error422(() => q('direction=both').enumOf('direction', ['in', 'out']))).toBe(
      'failed to parse direction: "both" is not one of in, out',
    );
  });

  it('reads limit, offset and sort with the service defaults and texts', () => {
    expect(q('').limit(10, 1000)).toBe(10);
    expect(q('limit=1000').limit(10, 1000)).toBe(1000);
    expect(error422(() => q('limit=1001').limit(10, 1000))).toBe('limit is not allowed: 1001 > 1000');
    expect(error422(() => q('limit=0').limit(10, 1000))).toBe('limit is not allowed: 0 < 1');
    expect(q('').offset()).toBe(0);
    expect(q('offset=2000').offset()).toBe(2000);
    expect(error422(() => q('offset=-1').offset())).toBe('offset is not allowed: -1 < 0');
    expect(['', 'sort=desc', 'sort=d'].map((s) => q(s).sort())).toEqual(['desc', 'desc', 'desc']);
    expect(['sort=asc', 'sort=a'].map((s) => q(s).sort())).toEqual(['asc', 'asc']);
    expect(error422(() => q('sort=ASC').sort())).toBe('failed to parse sort: "ASC" is not one of asc, desc');
  });
});

describe('query parameters over HTTP', () => {
  const auth = { headers: { 'X-API-Key': MAINNET_KEY } };

  it('passes repeated keys to the handler as arrays and a comma list as one value', async () => {
    const s = await startServer();
    const { status, body } = await getJson(`${s.url}/api/v3/echo?account=A&account=B&tx_hash=x,y`, auth);
    expect(status).toBe(200);
    expect(body).toEqual({
      method: 'GET',
      version: 'v3',
      endpoint: 'echo',
      query: { account: ['A', 'B'], tx_hash: ['x,y'] },
      body: null,
    });
  });

  it('answers limit above the maximum with 422 and the exact text', async () => {
    const s = await startServer();
    expect(await getJson(`${s.url}/api/v3/transactions?limit=1001`, auth)).toMatchObject({
      status: 422,
      body: { code: 422, error: 'limit is not allowed: 1001 > 1000' },
    });
  });

  it('answers a bad sort with 422', async () => {
    const s = await startServer();
    expect(await getJson(`${s.url}/api/v3/transactions?sort=newest`, auth)).toMatchObject({
      status: 422,
      body: { code: 422, error: 'failed to parse sort: "newest" is not one of asc, desc' },
    });
  });

  it('answers v2 parse failures with the v2 envelope', async () => {
    const s = await startServer();
    expect(await getJson(`${s.url}/api/v2/getBlockTransactions?workchain=x&seqno=1`, auth)).toMatchObject({
      status: 422,
      body: { ok: false, code: 422, error: 'failed to parse workchain: strconv.ParseInt: parsing "x": invalid syntax' },
    });
    expect(await getJson(`${s.url}/api/v2/getBlockTransactions?workchain=-1`, auth)).toMatchObject({
      status: 422,
      body: { ok: false, code: 422, error: 'missing required parameter: seqno' },
    });
  });
});
