/**
 * Validation of devnet v2 answers against the official v2 OpenAPI (OpenAPI 3.1, so its schemas are
 * JSON Schema 2020-12; a copy in test/fixtures/specs). Whole bodies are checked: the envelope
 * `{ok, result, @extra}` of a path's 200 response, or the error body of one of its error responses.
 *
 * The published file has errata: schemas no answer of the real service can satisfy. A COPY is
 * patched for exactly the v2 errata of spec-errata.ts (E1–E4, with their evidence), and nothing else.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';

type Schema = Record<string, any>;

const DOC_ID = 'https://chain-etl.invalid/toncenter-v2.schema.json';

export interface V2Spec {
  /** Paths with their methods (`get`, `post`), as the spec lists them (`/api/v2/getShards`…). */
  readonly operations: readonly { readonly path: string; readonly method: 'get' | 'post' }[];
  /** Errors of a body as the 200 response of `path` (empty when valid). */
  errors(path: string, body: unknown): string[];
  /** Errors of a body as the `status` error response of `path`. */
  errorErrors(path: string, status: number, body: unknown): string[];
}

export function v2Spec(options: { readonly patched?: boolean } = {}): V2Spec {
  const spec = JSON.parse(readFileSync(new URL('../fixtures/specs/toncenter-v2.openapi.docs-ton-org.json', import.meta.url), 'utf8')) as Schema;
  const components = structuredClone(spec.components) as Schema;
  if (options.patched !== false) patch(components);
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: DOC_ID, components });
  const operations = Object.entries(spec.paths as Schema).flatMap(([path, item]) =>
    Object.keys(item as Schema).map((method) => ({ path, method: method as 'get' | 'post' })),
  );
  const responseOf = (path: string, status: string): Schema => {
    const item = spec.paths[path] as Schema | undefined;
    if (item === undefined) throw new Error(`the v2 spec has no path ${path}`);
    const operation = (item.get ?? item.post) as Schema;
    let response = operation.responses[status] as Schema | undefined;
    if (response === undefined) throw new Error(`the v2 spec has no ${status} response for ${path}`);
    if (response.$ref !== undefined) response = components.responses[String(response.$ref).split('/').pop()!] as Schema;
    return rewriteRefs(response.content['application/json'].schema as Schema);
  };
  const run = (schema: Schema, body: unknown): string[] => {
    const validate = ajv.compile({ $id: `${DOC_ID}/check/${ajvCount++}`, ...schema });
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
  };
  return {
    operations,
    errors: (path, body) => run(responseOf(path, '200'), body),
    errorErrors: (path, status, body) => {
      const schema = structuredClone(responseOf(path, String(status)));
      const texts = schema.properties?.error?.enum as string[] | undefined;
      // E3
      if (options.patched !== false && texts !== undefined) schema.properties.error = { type: 'string', pattern: `^(?:${texts.map(placeholderPattern).join('|')})$` };
      return run(schema, body);
    },
  };
}

let ajvCount = 0;

/** An enumerated text as a pattern: `<N>`, `<value>` stand for any run of non-blank characters. */
function placeholderPattern(text: string): string {
  return text
    .split(/<[A-Za-z]+>/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('\\S+');
}

/** Local `#/components/...` references point into the one document ajv holds. */
function rewriteRefs(schema: Schema): Schema {
  return JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\/components\//g, `"$ref":"${DOC_ID}#/components/`)) as Schema;
}

function patch(components: Schema): void {
  const schemas = components.schemas as Schema;
  // E2
  schemas.TransactionStd.properties.in_msg = { oneOf: [{ $ref: '#/components/schemas/MessageStd' }, { type: 'null' }] };
  // E1
  const ext = structuredClone(schemas.TransactionStd) as Schema;
  ext.properties['@type'] = { type: 'string', enum: ['raw.transactionExt'], default: 'raw.transactionExt' };
  ext.properties.account = { $ref: '#/components/schemas/TonAddr' };
  schemas.TransactionExt = ext;
}
