import { ApiError } from './api-error.js';

export interface RangeOptions<T> {
  /** Missing (or empty) value is a 422 `missing required parameter: <name>`. @default false */
  readonly required?: boolean;
  /** Smallest accepted value (inclusive). @default no bound */
  readonly min?: T;
  /** Largest accepted value (inclusive). @default no bound */
  readonly max?: T;
}

export type SortOrder = 'asc' | 'desc';

const INTEGER = /^[+-]?\d+$/;
const BOOLEANS: Readonly<Record<string, boolean>> = {
  '1': true, t: true, T: true, true: true, TRUE: true, True: true,
  '0': false, f: false, F: false, false: false, FALSE: false, False: false,
};
const SORTS: Readonly<Record<string, SortOrder>> = { asc: 'asc', a: 'asc', desc: 'desc', d: 'desc' };

function unprocessable(message: string): ApiError {
  return new ApiError(422, message);
}

/** Go's strconv wording, as the real service reports parse failures. */
function syntaxError(name: string, fn: string, raw: string): ApiError {
  return unprocessable(`failed to parse ${name}: strconv.${fn}: parsing ${JSON.stringify(raw)}: invalid syntax`);
}

function checkRange<T extends number | bigint>(name: string, value: T, opts: RangeOptions<T>): T {
  if (opts.min !== undefined && value < opts.min) {
    throw unprocessable(`${name} is not allowed: ${value} < ${opts.min}`);
  }
  if (opts.max !== undefined && value > opts.max) {
    throw unprocessable(`${name} is not allowed: ${value} > ${opts.max}`);
  }
  return value;
}

/**
 * Query parameters of one request. Arrays are repeated keys (`a=1&a=2`); a comma-separated value is
 * one value, as on the real service. Typed readers throw ApiError 422 naming the parameter.
 */
export class QueryParams {
  readonly #params: URLSearchParams;

  constructor(params: URLSearchParams = new URLSearchParams()) {
    this.#params = params;
  }

  /** Adds the fields of a JSON object (a v2 POST body, JSON-RPC params) to `base`; arrays become repeated keys. */
  static fromFields(fields: Readonly<Record<string, unknown>>, base?: URLSearchParams): QueryParams {
    const params = new URLSearchParams(base);
    const text = (v: unknown): string => (typeof v === 'object' ? JSON.stringify(v) : String(v));
    for (const [name, value] of Object.entries(fields)) {
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) params.append(name, text(item));
    }
    return new QueryParams(params);
  }

  get(name: string): string | undefined {
    return this.#params.get(name) ?? undefined;
  }

  getAll(name: string): string[] {
    return this.#params.getAll(name);
  }

  has(name: string): boolean {
    return this.#params.has(name);
  }

  /** Distinct parameter names, in first-seen order. */
  names(): string[] {
    return [...new Set(this.#params.keys())];
  }

  int(name: string, opts: RangeOptions<number> & { readonly required: true }): number;
  int(name: string, opts?: RangeOptions<number>): number | undefined;
  int(name: string, opts: RangeOptions<number> = {}): number | undefined {
    const raw = this.#present(name, opts.required);
    if (raw === undefined) return undefined;
    if (!INTEGER.test(raw)) throw syntaxError(name, 'ParseInt', raw);
    const value = Number(raw);
    if (!Number.isSafeInteger(value)) {
      throw unprocessable(`failed to parse ${name}: strconv.ParseInt: parsing ${JSON.stringify(raw)}: value out of range`);
    }
    return checkRange(name, value, opts);
  }

  /** A 64-bit value such as an lt. */
  bigint(name: string, opts: RangeOptions<bigint> & { readonly required: true }): bigint;
  bigint(name: string, opts?: RangeOptions<bigint>): bigint | undefined;
  bigint(name: string, opts: RangeOptions<bigint> = {}): bigint | undefined {
    const raw = this.#present(name, opts.required);
    if (raw === undefined) return undefined;
    if (!INTEGER.test(raw)) throw syntaxError(name, 'ParseInt', raw);
    return checkRange(name, BigInt(raw), opts);
  }

  /** Accepts what Go's strconv.ParseBool accepts (1, t, true, 0, f, false, …). */
  bool(name: string): boolean | undefined {
    const raw = this.#present(name, false);
    if (raw === undefined) return undefined;
    const value = BOOLEANS[raw];
    if (value === undefined) throw syntaxError(name, 'ParseBool', raw);
    return value;
  }

  enumOf<T extends string>(name: string, values: readonly T[]): T | undefined {
    const raw = this.#present(name, false);
    if (raw === undefined) return undefined;
    const found = values.find((v) => v === raw);
    if (found === undefined) {
      throw unprocessable(`failed to parse ${name}: ${JSON.stringify(raw)} is not one of ${values.join(', ')}`);
    }
    return found;
  }

  limit(defaultLimit: number, maxLimit: number): number {
    return this.int('limit', { min: 1, max: maxLimit }) ?? defaultLimit;
  }

  offset(): number {
    return this.int('offset', { min: 0 }) ?? 0;
  }

  /** `asc|desc`, also `a|d`; default `desc`. */
  sort(): SortOrder {
    const raw = this.#present('sort', false);
    if (raw === undefined) return 'desc';
    const value = SORTS[raw];
    if (value === undefined) {
      throw unprocessable(`failed to parse sort: ${JSON.stringify(raw)} is not one of asc, desc`);
    }
    return value;
  }

  #present(name: string, required: boolean | undefined): string | undefined {
    const raw = this.#params.get(name);
    if (raw !== null && raw !== '') return raw;
    if (required) throw unprocessable(`missing required parameter: ${name}`);
    return undefined;
  }
}
