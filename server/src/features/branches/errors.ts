import { declareErrors } from '../../domain-error.js';

/** Why a branch could not be written, or named as the branch of a new resource. */
export const BranchError = declareErrors('branches', {
  notFound: () => ({}),
  nameTaken: () => ({}),
  targetRequired: () => ({}),
  targetNotFound: () => ({}),
});
