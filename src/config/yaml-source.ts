import { readFileSync } from 'node:fs';
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Node } from 'yaml';
import { ConfigError } from '../core/errors.js';

/** A path into the parsed file, as zod reports it. */
export type DataPath = readonly PropertyKey[];

/** One pipeline file: its data, and the position of any value in it for messages. */
export class YamlSource {
  readonly file: string;
  readonly data: unknown;
  readonly #doc: Document.Parsed;
  readonly #lines: LineCounter;

  private constructor(file: string, doc: Document.Parsed, lines: LineCounter, data: unknown) {
    this.file = file;
    this.#doc = doc;
    this.#lines = lines;
    this.data = data;
  }

  /** Reads and parses `file`; a missing file or invalid YAML is a ConfigError naming the place. */
  static read(file: string): YamlSource {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (cause) {
      throw new ConfigError(`cannot read pipeline file ${file}: ${readFailure(cause)}`, { cause });
    }
    return YamlSource.parse(text, file);
  }

  /** Parses `text` as the content of `file` (the name is used in messages only). */
  static parse(text: string, file: string): YamlSource {
    const lines = new LineCounter();
    const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
    const fail = (offset: number, message: string, cause?: unknown): ConfigError => {
      const { line, col } = lines.linePos(offset);
      return new ConfigError(`${file}:${line}:${col}: invalid YAML: ${message}`, { cause });
    };
    const first = doc.errors[0];
    if (first !== undefined) {
      const message = first.code === 'MULTIPLE_DOCS' ? 'a pipeline file holds one document: remove the second ---' : first.message;
      throw fail(first.pos[0], message, first);
    }
    let data: unknown;
    try {
      data = doc.toJS({ maxAliasCount: 100 });
    } catch (cause) {
      throw fail(unresolvedAliasOffset(doc), cause instanceof Error ? cause.message : String(cause), cause);
    }
    return new YamlSource(file, doc, lines, data);
  }

  /**
   * `file:line:col` of the value at `path`; of the key `key` inside it when given; of the deepest
   * existing map key when the path ends at a missing key.
   */
  where(path: DataPath, key?: string): string {
    const { line, col } = this.locate(path, key);
    return `${this.file}:${line}:${col}`;
  }

  /** Line and column (from 1) that `where` names. */
  locate(path: DataPath, key?: string): { readonly line: number; readonly col: number } {
    return this.#lines.linePos(this.#offset(path, key));
  }

  #offset(path: DataPath, key: string | undefined): number {
    let node: unknown = this.#doc.contents;
    let offset = start(node) ?? 0;
    let keyOffset: number | undefined;
    for (const segment of path) {
      if (isAlias(node)) node = node.resolve(this.#doc);
      const step = child(node, segment);
      if (step === undefined) return keyOffset ?? offset;
      node = step.node;
      keyOffset = step.keyOffset ?? keyOffset;
      offset = isEmptyScalar(node) ? (keyOffset ?? offset) : (start(node) ?? keyOffset ?? offset);
    }
    if (key !== undefined) {
      if (isAlias(node)) node = node.resolve(this.#doc);
      if (isMap(node)) {
        const pair = node.items.find((p) => scalarText(p.key) === key);
        return start(pair?.key) ?? offset;
      }
      if (isSeq(node)) return start(node.items.find((item) => scalarText(item) === key)) ?? offset;
    }
    return offset;
  }
}

function child(node: unknown, segment: PropertyKey): { node: unknown; keyOffset?: number } | undefined {
  if (isMap(node)) {
    const pair = node.items.find((p) => scalarText(p.key) === String(segment));
    if (pair === undefined) return undefined;
    const keyOffset = start(pair.key);
    return keyOffset === undefined ? { node: pair.value } : { node: pair.value, keyOffset };
  }
  if (isSeq(node) && typeof segment === 'number') {
    const item: unknown = node.items[segment];
    return item === undefined ? undefined : { node: item };
  }
  return undefined;
}

function start(node: unknown): number | undefined {
  return (node as Node | undefined)?.range?.[0];
}

function scalarText(node: unknown): string | undefined {
  return isScalar(node) ? String(node.value) : undefined;
}

/** `key:` with nothing after it: the scalar's range points past the line, so the key is the place. */
function isEmptyScalar(node: unknown): boolean {
  return node === null || (isScalar(node) && node.value === null && node.source === '');
}

function unresolvedAliasOffset(doc: Document.Parsed): number {
  let offset = 0;
  visit(doc, {
    Alias(_key, node) {
      if (node.resolve(doc) === undefined) {
        offset = node.range?.[0] ?? 0;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return offset;
}

function readFailure(cause: unknown): string {
  const code = (cause as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return cause instanceof Error ? cause.message : String(cause);
}
