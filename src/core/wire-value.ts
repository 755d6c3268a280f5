/**
 * Wire fields parsed in one step. Items are validated field by field on every page, and each zod
 * step of a field (string, regex, transform, pipe, refine, optional, nullable) costs a call and an
 * allocation per value: parsing a field with one function costs far less CPU per transactions page
 * (measured: docs/design.md §3), and the field is still a zod schema that object schemas,
 * `parseItems` and the reject reasons use as before.
 */
import { z } from 'zod';
import { exactJson } from './exact-json.js';

/** An integer as its canonical decimal text: no plus, no leading zeros, no -0, no fraction or exponent. */
export const CANONICAL_INTEGER = /^(?:0|-?[1-9]\d*)$/;

/** What a parser returns for a value it refuses: the message of the issue. */
export class WireProblem {
  constructor(readonly message: string) {}
}

/** Turns one JSON value (undefined when its key is absent) into a value, or says why it cannot. */
export type ValueParser<T> = (input: unknown) => T | WireProblem;

/** `expected <what>, got <input>`: the message of a refused wire value. */
export function refused(what: string, input: unknown): WireProblem {
  return new WireProblem(`expected ${what}, got ${showInput(input)}`);
}

/** A JSON value as a message shows it: `nothing` for an absent key, long values clipped. */
export function showInput(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'bigint') return `${value}`;
  return clipText(exactJson(value));
}

/** `text` cut to 80 characters with `...`, never between the two halves of a surrogate pair. */
export function clipText(text: string): string {
  if (text.length <= 80) return text;
  const high = text.charCodeAt(76);
  return `${text.slice(0, high >= 0xd800 && high <= 0xdbff ? 76 : 77)}...`;
}

/** `parse`, then `problem` (a column kind's check) of the value it made. */
export function checkedBy<T>(parse: ValueParser<T>, problem: (value: T) => string | undefined): ValueParser<T> {
  return (input) => {
    const value = parse(input);
    if (value instanceof WireProblem) return value;
    const found = problem(value);
    return found === undefined ? value : new WireProblem(found);
  };
}

/** The null-accepting variant of each `wireValue` field, so that `nullish` keeps it one step. */
const nullableVariants = new WeakMap<z.ZodType, z.ZodType>();

function oneStep<T>(parse: ValueParser<T>): z.ZodType<T> {
  return z
    .unknown()
    .optional()
    .transform((input, ctx) => {
      const value = parse(input);
      if (!(value instanceof WireProblem)) return value;
      ctx.addIssue({ code: 'custom', message: value.message });
      return z.NEVER;
    });
}

/** The parser of each `wireValue` field and of its null-accepting variant, for compiled item readers. */
const fieldParsers = new WeakMap<z.ZodType, ValueParser<unknown>>();

function registered<T>(parse: ValueParser<T>): z.ZodType<T> {
  const field = oneStep(parse);
  fieldParsers.set(field, parse);
  return field;
}

/** A zod field whose value `parse` checks and converts in one step. */
export function wireValue<T>(parse: ValueParser<T>): z.ZodType<T> {
  const field = registered(parse);
  nullableVariants.set(field, registered((input) => (input === null || input === undefined ? null : parse(input))));
  return field;
}

/** The one-step parser behind a `wireValue` field (or its `nullish` variant); undefined for any other schema. */
export function wireParserOf(schema: z.ZodType): ValueParser<unknown> | undefined {
  return fieldParsers.get(schema);
}

/** A value, null, or an absent key (→ null): the API's nullable and `omitempty` fields. */
export function nullish<T>(schema: z.ZodType<T>): z.ZodType<T | null> {
  const variant = nullableVariants.get(schema) as z.ZodType<T | null> | undefined;
  return variant ?? schema.nullish().transform((value) => value ?? null);
}
