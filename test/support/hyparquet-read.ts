/**
 * Parquet files read with hyparquet, a pure-JS reader independent of DuckDB: each column's stored
 * type as a short text, and the rows as the warehouse's row values (bigint, unix seconds, UTC days),
 * decoded from what the file holds rather than from hyparquet's conveniences (it turns decimals into
 * JS numbers, which are not exact above 2^53; here they are decoded from their bytes).
 */
import { readFile } from 'node:fs/promises';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import type { AnyTable, Row } from '../../src/core/table.js';
import { utcDay } from '../../src/core/utc-day.js';

type FileMetaData = ReturnType<typeof parquetMetadata>;
type SchemaElement = FileMetaData['schema'][number];

/** Raw values where hyparquet would convert: micros and days as numbers, JSON as its text. */
const parsers = {
  timestampFromMicroseconds: (micros: bigint): bigint => micros,
  dateFromDays: (days: number): number => days,
  jsonFromBytes: (bytes: Uint8Array): string => new TextDecoder().decode(bytes),
};

/** A file's columns: name → stored type, e.g. `INT64 INT_64`, `FIXED_LEN_BYTE_ARRAY(16) DECIMAL(38,0)`, `LIST<BYTE_ARRAY UTF8>`. */
export function storedTypes(metadata: FileMetaData): Map<string, string> {
  const types = new Map<string, string>();
  const [, ...elements] = metadata.schema;
  for (let index = 0; index < elements.length; index += 1) {
    const element = elements[index]!;
    if (element.converted_type === 'LIST') {
      types.set(element.name, `LIST<${typeText(elements[index + 2]!)}>`);
      index += 2;
    } else {
      types.set(element.name, typeText(element));
    }
  }
  return types;
}

function typeText(element: SchemaElement): string {
  const physical = element.type === 'FIXED_LEN_BYTE_ARRAY' ? `${element.type}(${element.type_length})` : String(element.type);
  const logical = element.logical_type;
  let annotation: string | undefined = element.converted_type;
  if (logical?.type === 'DECIMAL') annotation = `DECIMAL(${logical.precision},${logical.scale})`;
  if (logical?.type === 'TIMESTAMP') annotation = `TIMESTAMP(${logical.unit}, ${logical.isAdjustedToUTC ? 'UTC' : 'local'})`;
  if (logical?.type === 'INTEGER') annotation = `INTEGER(${logical.bitWidth}, ${logical.isSigned ? 'signed' : 'unsigned'})`;
  return annotation === undefined ? physical : `${physical} ${annotation}`;
}

export interface HyparquetFile {
  readonly metadata: FileMetaData;
  readonly rows: Row[];
}

/** Reads a whole file; decimal columns come back as bigint (from their two's-complement bytes, scale 0). */
export async function readWithHyparquet(path: string, table: AnyTable): Promise<HyparquetFile> {
  const bytes = await readFile(path);
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const metadata = parquetMetadata(file);
  // Without its DECIMAL annotation a FIXED_LEN_BYTE_ARRAY column reads as its bytes.
  const raw = {
    ...metadata,
    schema: metadata.schema.map((element) =>
      element.converted_type === 'DECIMAL' ? { ...element, converted_type: undefined, logical_type: undefined } : element,
    ),
  };
  const objects = await parquetReadObjects({ file, metadata: raw, compressors, parsers });
  const kinds = new Map(table.columnNames.map((name) => [name, table.columns[name]!.kind]));
  const rows = objects.map((object) =>
    Object.fromEntries(Object.entries(object).map(([name, value]) => [name, rowValue(kinds.get(name), value)])),
  );
  return { metadata, rows };
}

function rowValue(kind: string | undefined, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'amount':
    case 'uint64':
      return signedBigEndian(value as Uint8Array);
    case 'timestamptz':
      return Number((value as bigint) / 1_000_000n);
    case 'date':
      return utcDay((value as number) * 86_400);
    case 'textList':
      return [...(value as string[])];
    default:
      return value;
  }
}

function signedBigEndian(bytes: Uint8Array): bigint {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  const bits = BigInt(bytes.length * 8);
  return value >= 1n << (bits - 1n) ? value - (1n << bits) : value;
}
