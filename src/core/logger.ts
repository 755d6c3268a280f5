import { pino, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';
import { REDACTED } from './redact.js';
import { activeRedactor } from './secret-scope.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * The process logger: JSON lines on stderr (cron, log shippers), quiet on the happy path. Anything
 * that could carry the API key is redacted by path, and every line by the secret scope it was
 * created in (the key and its pieces, wherever they appear); the HTTP client also scrubs messages.
 */
export function createLogger(level: LevelWithSilent = 'info', destination: DestinationStream = pino.destination({ dest: 2, sync: true })): Logger {
  const redactor = activeRedactor();
  return pino(
    {
      level,
      base: undefined,
      redact: { paths: ['apiKey', '*.apiKey', 'headers["x-api-key"]', '*.headers["x-api-key"]', 'api_key', '*.api_key'], censor: REDACTED },
    },
    { write: (line: string) => destination.write(redactor.redact(line)) },
  );
}
