/**
 * An item schema compiled into a plain reader: one function per schema node, built once, that walks
 * an item and builds zod's output without zod's per-value machinery (a payload and an issue list per
 * value, the object and pipe bookkeeping). It only ever answers for an item zod accepts: at the first
 * doubt (a value a field refuses, a key missing, a node it does not know) it gives up and `parseItems`
 * asks the zod schema itself, which decides and words the reason. So the output for an accepted item
 * is zod's own, and every reject and its reason text is zod's (docs/design.md §3).
 */
import type { z } from 'zod';
import { WireProblem, wireParserOf } from '../core/wire-value.js';

/** What a reader returns when it leaves the item to zod. */
export const UNDECIDED: unique symbol = Symbol('undecided');

/** Reads one value: zod's output for it, or `UNDECIDED`. */
export type Reader<T = unknown> = (input: unknown) => T | typeof UNDECIDED;

/** The parts of a zod node that the compiler reads (zod 4's `_zod`); absent parts are undefined. */
interface NodeInternals {
  readonly def: {
    readonly type: string;
    readonly checks?: readonly unknown[];
    readonly innerType?: z.ZodType;
    readonly element?: z.ZodType;
    readonly in?: z.ZodType;
    readonly out?: z.ZodType;
    readonly shape?: Readonly<Record<string, z.ZodType>>;
    readonly catchall?: z.ZodType;
    readonly transform?: (input: unknown, context: TransformContext) => unknown;
  };
  readonly optin?: 'optional' | 'defaulted';
  readonly optout?: 'optional';
}

/** What a transform function receives as its context: only `addIssue` is used by ours. */
interface TransformContext {
  value: unknown;
  readonly issues: unknown[];
  addIssue(issue: unknown): void;
}

function internals(schema: z.ZodType): NodeInternals {
  return (schema as unknown as { readonly _zod: NodeInternals })._zod;
}

const compiled = new WeakMap<z.ZodType, Reader>();

/** The reader of `schema`, compiled on first use and kept for the schema's lifetime. */
export function itemReader<S extends z.ZodType>(schema: S): Reader<z.output<S>> {
  let reader = compiled.get(schema);
  if (reader === undefined) compiled.set(schema, (reader = compile(schema)));
  return reader as Reader<z.output<S>>;
}

function compile(schema: z.ZodType): Reader {
  const parse = wireParserOf(schema);
  if (parse !== undefined) return (input) => {
    const value = parse(input);
    return value instanceof WireProblem ? UNDECIDED : value;
  };
  const { def } = internals(schema);
  if (def.checks !== undefined && def.checks.length > 0) return byZod(schema);
  switch (def.type) {
    case 'string':
      return (input) => (typeof input === 'string' ? input : UNDECIDED);
    case 'boolean':
      return (input) => (typeof input === 'boolean' ? input : UNDECIDED);
    case 'unknown':
    case 'any':
      return (input) => input;
    case 'optional':
      return optional(def.innerType!);
    case 'nullable':
      return nullable(def.innerType!);
    case 'array':
      return array(def.element!);
    case 'object':
      return object(schema);
    case 'pipe':
      return pipe(def.in!, def.out!);
    case 'transform':
      return transform(def.transform!);
    default:
      return byZod(schema);
  }
}

/** A node the compiler does not know: zod parses the value (the item still needs no zod object walk above it). */
function byZod(schema: z.ZodType): Reader {
  return (input) => {
    const result = schema.safeParse(input);
    return result.success ? result.data : UNDECIDED;
  };
}

function optional(inner: z.ZodType): Reader {
  // A defaulted inner type substitutes its default for absence: left to zod.
  if (internals(inner).optin === 'defaulted') return byZod(inner);
  const read = itemReader(inner);
  return (input) => (input === undefined ? undefined : read(input));
}

function nullable(inner: z.ZodType): Reader {
  const read = itemReader(inner);
  return (input) => (input === null ? null : read(input));
}

function array(element: z.ZodType): Reader {
  const read = itemReader(element);
  return (input) => {
    if (!Array.isArray(input)) return UNDECIDED;
    const output = new Array<unknown>(input.length);
    for (let i = 0; i < input.length; i++) {
      const value = read(input[i]);
      if (value === UNDECIDED) return UNDECIDED;
      output[i] = value;
    }
    return output;
  };
}

function pipe(first: z.ZodType, then: z.ZodType): Reader {
  const readFirst = itemReader(first);
  const readThen = itemReader(then);
  return (input) => {
    const value = readFirst(input);
    return value === UNDECIDED ? UNDECIDED : readThen(value);
  };
}

function transform(apply: (input: unknown, context: TransformContext) => unknown): Reader {
  // One context for every call: a transform runs to its end before the next one starts.
  const context: TransformContext = { value: undefined, issues: [], addIssue: (issue) => context.issues.push(issue) };
  return (input) => {
    context.value = input;
    context.issues.length = 0;
    const output = apply(input, context);
    return context.issues.length > 0 || output instanceof Promise ? UNDECIDED : output;
  };
}

interface Field {
  readonly key: string;
  readonly read: Reader;
  readonly optin: NodeInternals['optin'];
  readonly optout: NodeInternals['optout'];
}

/**
 * An object as zod parses one: its declared keys in declaration order (an absent optional key left
 * out, an absent required one undecided), then, for a loose object, every other key as sent.
 */
function object(schema: z.ZodType): Reader {
  const { def } = internals(schema);
  const shape = def.shape!;
  const keys = Object.keys(shape);
  const catchall = def.catchall === undefined ? undefined : internals(def.catchall).def.type;
  const keepsOthers = catchall === 'unknown' || catchall === 'any';
  if ((catchall !== undefined && !keepsOthers) || keys.includes('__proto__') || Object.getOwnPropertySymbols(shape).length > 0) return byZod(schema);
  const fields: Field[] = keys.map((key) => {
    const field = shape[key]!;
    return { key, read: itemReader(field), optin: internals(field).optin, optout: internals(field).optout };
  });
  const declared = new Set(keys);
  return (input) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return UNDECIDED;
    const record = input as Readonly<Record<string, unknown>>;
    const output: Record<string, unknown> = {};
    for (const { key, read, optin, optout } of fields) {
      const present = key in record;
      if (!present && optin === undefined) return UNDECIDED;
      const absentOptional = !present && optout === 'optional';
      const value = read(record[key]);
      if (value === UNDECIDED) {
        if (absentOptional) continue;
        return UNDECIDED;
      }
      if (absentOptional && optin === 'optional') continue;
      if (value !== undefined) output[key] = value;
      else if (present || (optin === 'defaulted' && optout !== 'optional')) output[key] = undefined;
    }
    if (keepsOthers) {
      for (const key in record) {
        if (!declared.has(key) && key !== '__proto__') output[key] = record[key];
      }
    }
    return output;
  };
}
