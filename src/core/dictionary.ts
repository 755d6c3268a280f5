import type { AnyKind } from './column-kind.js';
import { PARTITION_COLUMN, type AnyTable } from './table.js';

/** The data dictionary in Markdown: one section per table, then a legend of the kinds used. */
export function dictionaryMarkdown(tables: readonly AnyTable[]): string {
  const out: string[] = ['# Data dictionary', ''];
  const kinds = new Map<string, AnyKind>();
  for (const table of tables) {
    out.push(`## ${table.name}`, '', table.doc, '');
    out.push(...tableFacts(table).map((fact) => `- ${fact}`), '');
    out.push('| column | kind | DuckDB type | null | description |', '|---|---|---|---|---|');
    for (const column of table.columnNames) {
      const kind = table.columns[column]!;
      kinds.set(kind.kind, kind);
      const nullable = kind.isNullable ? 'yes' : 'no';
      out.push(`| ${column} | ${kind.kind} | ${kind.sqlType} | ${nullable} | ${cell(kind.description)} |`);
    }
    out.push('');
  }
  out.push('## Column kinds', '', '| kind | DuckDB type | Parquet storage | meaning |', '|---|---|---|---|');
  for (const kind of kinds.values()) {
    out.push(`| ${kind.kind} | ${kind.sqlType} | ${kind.parquetType} | ${cell(kind.kindDoc)} |`);
  }
  return `${out.join('\n')}\n`;
}

function tableFacts(table: AnyTable): string[] {
  const code = (names: readonly string[]): string => names.map((name) => `\`${name}\``).join(', ');
  const facts = [`Primary key: ${code(table.primaryKey)}.`];
  if (table.replaceBy !== undefined) {
    facts.push(`Replaced by ${code([table.replaceBy])}: a commit replaces all rows of each value it carries.`);
  }
  if (table.partitionBy !== undefined) {
    facts.push(`Parquet: partitioned by UTC day (\`${PARTITION_COLUMN}=YYYY-MM-DD\`).`);
  }
  if (table.clusterBy !== undefined) facts.push(`Parquet files are sorted by ${code([table.clusterBy])}.`);
  return facts;
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}
