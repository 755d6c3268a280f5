import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

/** Runs `use` on a connection to a DuckDB database (a file, or `:memory:`), closed after it. */
export async function withDuckDB<T>(path: string, options: Readonly<Record<string, string>>, use: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(path, options);
  const connection = await instance.connect();
  try {
    return await use(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
