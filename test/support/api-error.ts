/** The ApiError a handler call throws; fails the test when it returns or throws anything else. */
import { ApiError } from '../../src/devnet/http/api-error.js';

export function apiErrorOf(call: () => unknown): ApiError {
  try {
    call();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected an ApiError');
}
