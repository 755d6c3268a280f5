import { ConfigError } from '../core/errors.js';

/** `scheme://…`: object storage (s3://, gs://, az://) or any other URL. */
const URL_SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;

/**
 * Refuses a sink path that is a URL: the sinks write local files only, and a URL taken as a path
 * would create a folder named `s3:`. The URL is not echoed (it may carry credentials); its scheme is.
 */
export function checkLocalSinkPath(path: string, where: string): void {
  const scheme = URL_SCHEME.exec(path.trim())?.[1];
  if (scheme !== undefined) throw new ConfigError(`${where}: object storage is not supported yet: use a local path, got ${scheme.toLowerCase()}://…`);
  const glob = GLOB_CHARACTER.exec(path)?.[0];
  if (glob !== undefined) {
    throw new ConfigError(
      `${where}: ${JSON.stringify(path)} holds the glob character "${glob}": DuckDB reads every Parquet file path as a pattern, so the warehouse would read a neighbour's files (wh[12] matches wh1/); rename the folder without * ? [ ] { }`,
    );
  }
}

/** Characters DuckDB's file readers expand in a path. */
const GLOB_CHARACTER = /[*?[\]{}]/;
