import { declareErrors } from '../../domain-error.js';
import type { FieldProblem } from './rules.js';

/** Why a client could not be created or changed. */
export const ClientError = declareErrors('clients', {
  notFound: () => ({}),
  /** Every field the rules refuse, each in the rules' own words. */
  invalidFields: (problems: FieldProblem[]) => ({ problems }),
  branchNotAllowed: () => ({}),
  branchRequired: () => ({}),
  branchNotFound: () => ({}),
  noExchangeInReach: () => ({}),
  emailTaken: () => ({}),
});
