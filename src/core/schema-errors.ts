import { FatalError } from './errors.js';

/** A row value that is not a value of its column's kind (out of range, wrong type, missing). */
export class RowValueError extends FatalError {}

/** A live table whose columns differ from its definition; appending to it would misplace values. */
export class SchemaDriftError extends FatalError {}

/** A warehouse written by a schema version this build does not read. Exit code 2: point the sink elsewhere. */
export class SchemaVersionError extends FatalError {
  override readonly exitCode = 2;
}

/** A table definition that cannot work (bad names, unknown key columns). */
export class TableDefinitionError extends FatalError {}
