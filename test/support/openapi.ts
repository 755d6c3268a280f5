/**
 * Validation of devnet responses against the official v3 OpenAPI spec (a copy in test/fixtures/specs).
 *
 * The spec is OpenAPI 3.0; ajv wants JSON Schema. The conversion: `$ref: #/components/schemas/X`
 * points into one JSON Schema document holding every component; `nullable: true` becomes a union
 * with null; OpenAPI-only keywords (`example`, `x-*`, …) are dropped.
 *
 * The real service deviates from the published spec in known ways (docs/design.md §6): a COPY of the
 * spec is patched to accept exactly the v3 errata of spec-errata.ts (P1–P4, with their evidence), and
 * nothing else.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import * as ajvFormats from 'ajv-formats';

export const SPEC_PATH = fileURLToPath(new URL('../fixtures/specs/toncenter-v3.openapi.docs-ton-org.yaml', import.meta.url));

const DOC_ID = 'https://chain-etl.invalid/toncenter-v3.schema.json';
const COMPONENT_REF = '#/components/schemas/';

type Schema = Record<string, unknown>;

/** P4: the run result ton-index-go returns (models.V2RunGetMethodResult). */
const RUN_GET_METHOD_RESULT: Schema = {
  type: 'object',
  properties: {
    gas_used: { type: 'integer' },
    exit_code: { type: 'integer' },
    stack: { type: 'array', items: { $ref: `${COMPONENT_REF}V2StackEntity` } },
  },
};

/** JSON Schema keywords kept from OpenAPI 3.0 schema objects; everything else is OpenAPI-only and dropped. */
const KEPT = new Set([
  'type', 'properties', 'items', 'additionalProperties', 'enum', 'format', 'description', 'required',
  'allOf', 'anyOf', 'oneOf', 'not', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems', 'minProperties',
  'maxProperties', 'multipleOf', 'default', 'title', '$ref',
]);

export interface SpecOptions {
  /**
   * Also reject properties the spec does not name (objects with `properties` become closed). The
   * spec itself never says `additionalProperties: false`; this is the tests' stricter reading.
   * @default false
   */
  readonly closed?: boolean;
  /** Apply P1–P4; false gives the spec as published (to show the deviations are real). @default true */
  readonly patched?: boolean;
}

export interface SpecResponses {
  /** The path's 200 response schema (of its GET, else its POST), converted and patched. */
  schemaOf(path: string): Schema;
  /** Validation errors of a body as that path's 200 response (empty when valid). */
  errors(path: string, body: unknown): string[];
}

export function loadSpec(): Schema {
  return parse(readFileSync(SPEC_PATH, 'utf8')) as Schema;
}

export function specResponses(options: SpecOptions = {}): SpecResponses {
  const spec = loadSpec();
  const components = structuredClone((spec.components as Schema).schemas as Record<string, Schema>);
  if (options.patched !== false) patch(components);
  const definitions: Record<string, Schema> = {};
  for (const [name, schema] of Object.entries(components)) definitions[name] = convert(schema, options);

  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  const addFormats = (ajvFormats as unknown as { default: (a: Ajv) => void }).default;
  addFormats(ajv);
  ajv.addSchema({ $id: DOC_ID, definitions });

  const paths = spec.paths as Record<string, Record<string, Schema>>;
  const compiled = new Map<string, ValidateFunction>();
  const schemaOf = (path: string): Schema => {
    if (path === 'runGetMethod' && options.patched !== false) return convert(structuredClone(RUN_GET_METHOD_RESULT), options); // P4
    const item = paths[`/api/v3/${path}`];
    const operation = item?.get ?? item?.post;
    const schema = ((((operation?.responses as Schema | undefined)?.['200'] as Schema | undefined)?.content as Schema | undefined)?.['application/json'] as Schema | undefined)?.schema;
    if (schema === undefined) throw new Error(`the spec has no /api/v3/${path} 200 response schema`);
    return convert(structuredClone(schema as Schema), options);
  };
  return {
    schemaOf,
    errors(path, body) {
      let validate = compiled.get(path);
      if (validate === undefined) {
        validate = ajv.compile(schemaOf(path));
        compiled.set(path, validate);
      }
      if (validate(body)) return [];
      return (validate.errors ?? []).map((e) => describe(e, body));
    },
  };
}

/** P2 and P3 on the copy of the components (P1 is applied to every `properties` map in convert). */
function patch(components: Record<string, Schema>): void {
  // P2
  components.FinalityState = { type: ['integer', 'string'], enum: [0, 1, 2, 'pending', 'confirmed', 'finalized'] };
  // P3
  const message = components.Message?.properties as Record<string, Schema> | undefined;
  if (message?.opcode === undefined) throw new Error('spec changed: Message.opcode is gone');
  message.opcode = { type: ['integer', 'string'], pattern: '^0x[0-9a-f]{8}$' };
}

function convert(node: Schema, options: SpecOptions): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (!KEPT.has(key)) continue;
    switch (key) {
      case '$ref': {
        const ref = value as string;
        if (!ref.startsWith(COMPONENT_REF)) throw new Error(`unsupported $ref ${ref}`);
        out.$ref = `${DOC_ID}#/definitions/${ref.slice(COMPONENT_REF.length)}`;
        break;
      }
      case 'properties': {
        const properties: Record<string, Schema> = {};
        for (const [name, property] of Object.entries(value as Record<string, Schema>)) {
          const converted = convert(property, options);
          properties[name] = options.patched === false ? converted : nullable(converted); // P1
        }
        out.properties = properties;
        break;
      }
      case 'items':
      case 'not':
        out[key] = convert(value as Schema, options);
        break;
      case 'additionalProperties':
        out[key] = typeof value === 'boolean' ? value : convert(value as Schema, options);
        break;
      case 'allOf':
      case 'anyOf':
      case 'oneOf':
        out[key] = (value as Schema[]).map((s) => convert(s, options));
        break;
      default:
        out[key] = value;
    }
  }
  if (node.nullable === true) Object.assign(out, nullable(out));
  if (options.closed === true && out.properties !== undefined && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

function nullable(schema: Schema): Schema {
  if (schema.$ref !== undefined || schema.type === undefined) {
    if (Object.keys(schema).length === 0) return schema; // `{}` already admits null
    return { anyOf: [schema, { type: 'null' }] };
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  const widened: Schema = { ...schema, type: [...new Set([...types, 'null'])] };
  if (Array.isArray(schema.enum)) widened.enum = [...(schema.enum as unknown[]), null];
  return widened;
}

function describe(error: ErrorObject, body: unknown): string {
  const value = pointerValue(body, error.instancePath);
  const shown = JSON.stringify(value);
  return `${error.instancePath || '/'} ${error.message ?? error.keyword}${error.keyword === 'additionalProperties' ? ` (${String((error.params as { additionalProperty?: string }).additionalProperty)})` : ''}: got ${shown === undefined ? 'undefined' : shown.slice(0, 120)}`;
}

function pointerValue(body: unknown, pointer: string): unknown {
  let value = body;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}
