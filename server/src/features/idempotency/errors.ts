import { declareErrors } from '../../domain-error.js';

/** Why a request with an Idempotency-Key could not be run or answered from its stored response. */
export const IdempotencyError = declareErrors('idempotency', {
  keyMalformed: () => ({}),
  keyReusedForAnotherRequest: () => ({}),
  stillInProgress: () => ({}),
});
