/**
 * The secrets of one command (its API key), known to every piece of code the command runs, so that
 * text leaving the process (stderr, logs, run records, rejects, status) is redacted where it leaves
 * without passing the key down to it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Redactor } from './redact.js';

const scope = new AsyncLocalStorage<Redactor>();

/** Runs `fn` with a scope of its own: secrets registered within it are redacted by `activeRedactor()` within it. */
export function withSecretScope<T>(fn: (redactor: Redactor) => T): T {
  const redactor = new Redactor();
  return scope.run(redactor, () => fn(redactor));
}

/** Adds a secret to the current scope; outside a scope it does nothing. */
export function registerSecret(secret: string | undefined): void {
  scope.getStore()?.add(secret);
}

/** The current scope's redactor (it learns secrets registered later), or one that changes nothing outside a scope. */
export function activeRedactor(): Redactor {
  return scope.getStore() ?? new Redactor();
}
