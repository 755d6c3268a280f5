/**
 * One error hierarchy for the whole tool. Code branches on the class, never on message text.
 * Retryable errors may succeed when tried again (network, 429, 5xx, timeouts, truncated bodies);
 * fatal errors need a human (config, auth, contract violations).
 */
export abstract class EtlError extends Error {
  abstract readonly retryable: boolean;
  /** Process exit code when this error ends a command. */
  readonly exitCode: number = 1;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class RetryableError extends EtlError {
  readonly retryable = true;
}

export class FatalError extends EtlError {
  readonly retryable = false;
}

/** The warehouse holds a checkpoint past the newest block the service indexes. Exit code 1: the service may catch up. */
export class AheadOfChainError extends FatalError {}

/** A pipeline file, flag or argument the user must fix. Exit code 2. */
export class ConfigError extends FatalError {
  override readonly exitCode = 2;
}

/** Another process holds the warehouse lock. Exit code 3. */
export class LockedError extends FatalError {
  override readonly exitCode = 3;
}

/** A run of another process writes the DuckDB warehouse, so no other process may open it, read-only included. Exit code 3. */
export class WarehouseWrittenError extends LockedError {
  constructor(
    message: string,
    /** The process that holds the file's lock, as DuckDB names it; undefined where it does not. */
    readonly holderPid: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Other processes read the DuckDB warehouse (read-only connections), so no run can write it. Exit code 3. */
export class ReadersHoldError extends LockedError {}

/** The operator stopped the run (SIGINT → exit 130, SIGTERM → 143); committed pages stay and the next run resumes. */
export class InterruptedError extends FatalError {
  override readonly exitCode: number;

  constructor(readonly signal: 'SIGINT' | 'SIGTERM') {
    super(`interrupted by ${signal}: every committed page is kept; run the same command again to resume`);
    this.exitCode = signal === 'SIGINT' ? 130 : 143;
  }
}
