import { z } from 'zod';
import { MAX_QUERY_BYTES } from '../api/url-limit.js';
import { pipelineFileSchema } from './schema.js';
import '../options/meta.js';

/** One option of the pipeline file, for CLI help and the docs table. */
export interface OptionRow {
  /** Dotted path, e.g. `rate.rps` or `streams.transactions.accounts`. */
  readonly key: string;
  readonly type: string;
  /** `required`, `—` (optional, no default) or the default. */
  readonly default: string;
  readonly description: string;
}

/** Every option of the pipeline file, in schema order, generated from the schema and its metadata. */
export function describeOptions(schema: z.ZodType = pipelineFileSchema): readonly OptionRow[] {
  const rows: OptionRow[] = [];
  visit(schema, '', rows);
  return rows;
}

/** Where the options' document is kept, from the project root. */
export const OPTIONS_FILE = 'pipelines/OPTIONS.md';

/** The options' document: a title, how it is made, and the table. */
export function optionsDocument(): string {
  return [
    '# Pipeline file options',
    '',
    '<!-- Generated from src/config/schema.ts by optionsMarkdown(); do not edit. Regenerate with `npm run generate`. -->',
    '',
    'Keys of a pipeline file (`pipelines/*.yaml`). Addresses are raw (`wc:HEX`) or user-friendly and are stored raw, upper case.',
    '',
    `A list of addresses goes in each request's URL, which the client keeps to ${MAX_QUERY_BYTES / 1024} KB of query (proxies such as nginx refuse a longer request line): 80 to 92 raw addresses a list by the length of its parameter's name, fewer beside other lists of the stream. A longer list is refused when the pipeline is loaded, with the most that fit; split it over several pipelines.`,
    '',
    optionsMarkdown(),
  ].join('\n');
}

/** The options as a Markdown table. */
export function optionsMarkdown(schema: z.ZodType = pipelineFileSchema): string {
  const cell = (text: string): string => text.replaceAll('|', '\\|');
  const lines = describeOptions(schema).map(
    (row) => `| \`${row.key}\` | ${cell(row.type)} | ${cell(row.default)} | ${cell(row.description)} |`,
  );
  return ['| Key | Type | Default | Description |', '| --- | --- | --- | --- |', ...lines].join('\n') + '\n';
}

interface Layers {
  readonly core: z.ZodType;
  readonly meta: z.GlobalMeta;
  readonly optional: boolean;
  readonly fallback: { readonly value: unknown } | undefined;
}

/** Looks through optional, nullable, default, prefault and pipes to the schema that holds the shape. */
function peel(schema: z.ZodType): Layers {
  let node: z.ZodType = schema;
  let meta: z.GlobalMeta = {};
  let optional = false;
  let fallback: { value: unknown } | undefined;
  for (;;) {
    meta = { ...(node.meta() ?? {}), ...meta };
    if (node instanceof z.ZodOptional || node instanceof z.ZodPrefault) optional = true;
    if (node instanceof z.ZodDefault) fallback = { value: node.def.defaultValue };
    if (node instanceof z.ZodOptional || node instanceof z.ZodNullable || node instanceof z.ZodDefault || node instanceof z.ZodPrefault) {
      node = node.unwrap() as z.ZodType;
    } else if (node instanceof z.ZodPipe) {
      node = (node.in instanceof z.ZodTransform ? node.out : node.in) as z.ZodType;
    } else {
      return { core: node, meta, optional, fallback };
    }
  }
}

function visit(schema: z.ZodType, key: string, rows: OptionRow[]): void {
  const { core, meta, optional, fallback } = peel(schema);
  if (key !== '') {
    rows.push({
      key,
      type: meta.typeLabel ?? typeOf(core),
      default: meta.defaultLabel ?? (fallback !== undefined ? String(fallback.value) : optional ? '—' : 'required'),
      description: meta.description ?? '',
    });
  }
  if (core instanceof z.ZodObject) {
    for (const [name, child] of Object.entries(core.shape as z.ZodRawShape)) {
      visit(child as z.ZodType, key === '' ? name : `${key}.${name}`, rows);
    }
  }
}

function typeOf(schema: z.ZodType): string {
  if (schema instanceof z.ZodEnum) return schema.options.join(' | ');
  if (schema instanceof z.ZodObject) return 'map';
  if (schema instanceof z.ZodString) return 'string';
  if (schema instanceof z.ZodNumber) return schema.isInt ? 'integer' : 'number';
  return 'value';
}
