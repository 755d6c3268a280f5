import { describe, expect, it } from 'vitest';
import { ENGINE_TYPES, renderExternalTables } from '../scripts/external-tables.js';
import { allKinds } from '../src/core/column-kinds.js';
import { dataTables } from '../src/streams/index.js';

/** The engine type each DuckDB type of a Parquet file reads as, per engine. */
/** Athena reads with the Hive types Spark uses. */
const FROM_PARQUET: Readonly<Record<string, readonly [trino: string, spark: string, clickhouse: string]>> = {
  BIGINT: ['BIGINT', 'BIGINT', 'Int64'],
  INTEGER: ['INTEGER', 'INT', 'Int32'],
  'DECIMAL(20,0)': ['DECIMAL(20,0)', 'DECIMAL(20,0)', 'Decimal(20, 0)'],
  'DECIMAL(38,0)': ['DECIMAL(38,0)', 'DECIMAL(38,0)', 'Decimal(38, 0)'],
  TIMESTAMPTZ: ['TIMESTAMP(6)', 'TIMESTAMP', "DateTime64(6, 'UTC')"],
  DATE: ['DATE', 'DATE', 'Date32'],
  BOOLEAN: ['BOOLEAN', 'BOOLEAN', 'Bool'],
  VARCHAR: ['VARCHAR', 'STRING', 'String'],
  JSON: ['VARCHAR', 'STRING', 'String'],
  'VARCHAR[]': ['ARRAY(VARCHAR)', 'ARRAY<STRING>', 'Array(String)'],
};

describe('external-table DDL (docs/external-tables/)', () => {
  it('maps every column kind to the type its Parquet column reads as in each engine (lt BIGINT, never unsigned)', () => {
    for (const kind of allKinds) {
      const [trino, spark, clickhouse] = FROM_PARQUET[kind.parquetSqlType] ?? [];
      expect([kind.kind, ENGINE_TYPES[kind.kind]]).toEqual([kind.kind, { trino, athena: spark, spark, clickhouse }]);
    }
    expect(ENGINE_TYPES['logicalTime']).toEqual({ trino: 'BIGINT', athena: 'BIGINT', spark: 'BIGINT', clickhouse: 'Int64' });
  });

  it('declares every data table once per engine, partitioned tables by their date folder', () => {
    const files = renderExternalTables();
    expect([...files.keys()].sort()).toEqual(['athena', 'clickhouse', 'spark', 'trino'].map((name) => `docs/external-tables/${name}.sql`));
    const trino = files.get('docs/external-tables/trino.sql')!;
    const athena = files.get('docs/external-tables/athena.sql')!;
    for (const table of dataTables) {
      expect(trino).toContain(`CREATE TABLE hive.chain_etl."${table.name}" (`);
      expect(athena.includes(`LOCATION 's3://your-bucket/chain-etl/${table.name}/'\nTBLPROPERTIES`), table.name).toBe(table.partitionBy !== undefined);
    }
    expect(trino).toContain(`"tx_lt" BIGINT COMMENT`);
    expect(trino).not.toMatch(/UBIGINT|UINT|HUGEINT|DOUBLE/);
  });
});
