/**
 * DDL that declares the Parquet warehouse's tables in the engines people point at a lake: Trino (Hive
 * connector), Athena, Spark SQL and ClickHouse, generated from the table definitions (docs/external-tables/).
 * Each column kind maps to one exact type per engine; a kind without a mapping fails the generation.
 */
import { allKinds } from '../src/core/column-kinds.js';
import { PARTITION_COLUMN, type AnyTable } from '../src/core/table.js';
import { dataTables } from '../src/streams/index.js';

/** Folder of the generated DDL, relative to the project root. */
export const EXTERNAL_TABLES_DIR = 'docs/external-tables';

/** Where the DDL says the warehouse folder is: replaced by the user with the copy's location. */
const ROOT = 's3://your-bucket/chain-etl';

type Dialect = 'trino' | 'athena' | 'spark' | 'clickhouse';

/**
 * The type of each kind per engine. Parquet holds lt as INT64, uint64 as DECIMAL(20,0), amounts as
 * DECIMAL(38,0), instants as TIMESTAMP(MICROS, UTC), days as DATE (src/core/column-kinds.ts).
 */
export const ENGINE_TYPES: Readonly<Record<string, Readonly<Record<Dialect, string>>>> = {
  logicalTime: { trino: 'BIGINT', athena: 'BIGINT', spark: 'BIGINT', clickhouse: 'Int64' },
  int64: { trino: 'BIGINT', athena: 'BIGINT', spark: 'BIGINT', clickhouse: 'Int64' },
  int32: { trino: 'INTEGER', athena: 'INT', spark: 'INT', clickhouse: 'Int32' },
  uint64: { trino: 'DECIMAL(20,0)', athena: 'DECIMAL(20,0)', spark: 'DECIMAL(20,0)', clickhouse: 'Decimal(20, 0)' },
  amount: { trino: 'DECIMAL(38,0)', athena: 'DECIMAL(38,0)', spark: 'DECIMAL(38,0)', clickhouse: 'Decimal(38, 0)' },
  timestamptz: { trino: 'TIMESTAMP(6)', athena: 'TIMESTAMP', spark: 'TIMESTAMP', clickhouse: "DateTime64(6, 'UTC')" },
  date: { trino: 'DATE', athena: 'DATE', spark: 'DATE', clickhouse: 'Date32' },
  bool: { trino: 'BOOLEAN', athena: 'BOOLEAN', spark: 'BOOLEAN', clickhouse: 'Bool' },
  text: { trino: 'VARCHAR', athena: 'STRING', spark: 'STRING', clickhouse: 'String' },
  hash: { trino: 'VARCHAR', athena: 'STRING', spark: 'STRING', clickhouse: 'String' },
  rawAddress: { trino: 'VARCHAR', athena: 'STRING', spark: 'STRING', clickhouse: 'String' },
  json: { trino: 'VARCHAR', athena: 'STRING', spark: 'STRING', clickhouse: 'String' },
  textList: { trino: 'ARRAY(VARCHAR)', athena: 'ARRAY<STRING>', spark: 'ARRAY<STRING>', clickhouse: 'Array(String)' },
};

interface Engine {
  readonly dialect: Dialect;
  readonly title: string;
  /** Comment lines at the top of the file: how to run it. */
  readonly usage: readonly string[];
  quote(name: string): string;
  createTable(table: AnyTable, columns: readonly string[]): string;
}

const sqlString = (text: string): string => `'${text.replace(/'/g, "''")}'`;
const backtick = (name: string): string => `\`${name}\``;
const partitioned = (table: AnyTable): boolean => table.partitionBy !== undefined;

function column(engine: Engine, table: AnyTable, name: string): string {
  const kind = table.columns[name]!;
  const type = ENGINE_TYPES[kind.kind]?.[engine.dialect];
  if (type === undefined) throw new Error(`${table.name}.${name}: kind ${kind.kind} has no ${engine.title} type in ENGINE_TYPES`);
  const nullable = engine.dialect === 'clickhouse' && kind.isNullable && kind.kind !== 'textList' ? `Nullable(${type})` : type;
  return `  ${engine.quote(name)} ${nullable} COMMENT ${sqlString(kind.description)}`;
}

const PARTITION_DOC = 'UTC day of the Hive partition folder (date=YYYY-MM-DD)';

const engines: readonly Engine[] = [
  {
    dialect: 'trino',
    title: 'Trino (Hive connector)',
    usage: [
      'Run in a Trino catalog named hive with a schema chain_etl; then, after every sync that adds a day,',
      "CALL hive.system.sync_partition_metadata('chain_etl', '<table>', 'ADD') (written after each table).",
      'Hive tables have no TIMESTAMP WITH TIME ZONE: the files hold UTC instants (isAdjustedToUTC);',
      "set hive.parquet.time-zone = 'UTC' in the catalog so that they read as UTC times.",
    ],
    quote: (name) => `"${name}"`,
    createTable: (table, columns) => {
      const all = partitioned(table) ? [...columns, `  "${PARTITION_COLUMN}" DATE COMMENT ${sqlString(PARTITION_DOC)}`] : columns;
      const options = [`  external_location = ${sqlString(`${ROOT}/${table.name}`)}`, "  format = 'PARQUET'"];
      if (partitioned(table)) options.push(`  partitioned_by = ARRAY['${PARTITION_COLUMN}']`);
      const sync = partitioned(table) ? `\nCALL hive.system.sync_partition_metadata('chain_etl', '${table.name}', 'ADD');` : '';
      return `CREATE TABLE hive.chain_etl."${table.name}" (\n${all.join(',\n')}\n)\nCOMMENT ${sqlString(table.doc)}\nWITH (\n${options.join(',\n')}\n);${sync}`;
    },
  },
  {
    dialect: 'athena',
    title: 'Amazon Athena',
    usage: [
      'Run each statement in Athena (engine version 3). Partition projection lists the days itself:',
      'no MSCK REPAIR TABLE after a sync. TIMESTAMP columns hold UTC instants.',
    ],
    quote: backtick,
    createTable: (table, columns) => {
      const partition = partitioned(table) ? `\nPARTITIONED BY (\`${PARTITION_COLUMN}\` DATE COMMENT ${sqlString(PARTITION_DOC)})` : '';
      const projection = partitioned(table)
        ? "\nTBLPROPERTIES (\n  'projection.enabled' = 'true',\n  'projection.date.type' = 'date',\n  'projection.date.format' = 'yyyy-MM-dd',\n" +
          "  'projection.date.range' = '2019-11-15,NOW',\n  'projection.date.interval' = '1',\n  'projection.date.interval.unit' = 'DAYS'\n)"
        : '';
      return `CREATE EXTERNAL TABLE \`${table.name}\` (\n${columns.join(',\n')}\n)\nCOMMENT ${sqlString(table.doc)}${partition}\n` +
        `STORED AS PARQUET\nLOCATION ${sqlString(`${ROOT}/${table.name}/`)}${projection};`;
    },
  },
  {
    dialect: 'spark',
    title: 'Spark SQL',
    usage: [
      'Run in spark-sql or spark.sql(...) with a Hive metastore or the session catalog; ROOT may be a local',
      'path. After a sync that adds a day: ALTER TABLE <table> RECOVER PARTITIONS (written after each table).',
      "TIMESTAMP is an instant; SET spark.sql.session.timeZone = 'UTC' to see UTC times.",
    ],
    quote: backtick,
    createTable: (table, columns) => {
      const all = partitioned(table) ? [...columns, `  \`${PARTITION_COLUMN}\` DATE COMMENT ${sqlString(PARTITION_DOC)}`] : columns;
      const partition = partitioned(table) ? `\nPARTITIONED BY (\`${PARTITION_COLUMN}\`)` : '';
      const recover = partitioned(table) ? `\nALTER TABLE \`${table.name}\` RECOVER PARTITIONS;` : '';
      return `CREATE TABLE \`${table.name}\` (\n${all.join(',\n')}\n)\nUSING PARQUET${partition}\n` +
        `LOCATION ${sqlString(`${ROOT}/${table.name}`)}\nCOMMENT ${sqlString(table.doc)};${recover}`;
    },
  },
  {
    dialect: 'clickhouse',
    title: 'ClickHouse',
    usage: [
      'Tables of the S3 engine over each table folder (any S3-compatible endpoint; for a local copy use',
      "the file() table function with the same glob). The partition day is in the path, not in the files:",
      'filter on block_date, the same UTC day, which every fact table holds.',
    ],
    quote: backtick,
    createTable: (table, columns) => {
      const url = `${ROOT.replace(/^s3:\/\/([^/]+)/, 'https://$1.s3.amazonaws.com')}/${table.name}/**/*.parquet`;
      return `CREATE TABLE \`${table.name}\` (\n${columns.join(',\n')}\n)\nENGINE = S3(${sqlString(url)}, 'Parquet')\nCOMMENT ${sqlString(table.doc)};`;
    },
  },
];

/** The DDL file of each engine: path → content. */
export function renderExternalTables(tables: readonly AnyTable[] = dataTables): Map<string, string> {
  const unmapped = allKinds.filter((kind) => ENGINE_TYPES[kind.kind] === undefined).map((kind) => kind.kind);
  if (unmapped.length > 0) throw new Error(`column kinds without engine types in scripts/external-tables.ts: ${unmapped.join(', ')}`);
  return new Map(engines.map((engine) => {
    const header = [
      `-- ${engine.title}: the chain-etl Parquet warehouse as external tables. Generated from the table`,
      '-- definitions by `npm run generate` (scripts/external-tables.ts); do not edit.',
      `-- Replace ${ROOT} with where the warehouse folder is. Read docs/external-tables.md first: an`,
      '-- engine that lists the folders also sees files the manifest does not list.',
      ...engine.usage.map((line) => `-- ${line}`),
    ];
    const statements = tables.map((table) => engine.createTable(table, table.columnNames.map((name) => column(engine, table, name))));
    return [`${EXTERNAL_TABLES_DIR}/${engine.dialect}.sql`, `${header.join('\n')}\n\n${statements.join('\n\n')}\n`];
  }));
}
