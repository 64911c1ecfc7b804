import { declareErrors } from '../../domain-error.js';

/** Why a rate source could not be read, registered, changed or deleted. */
export const RateSourceError = declareErrors('rateSources', {
  notFound: () => ({}),
  nameTaken: () => ({}),
  /** The URL guard's refusal, said exactly as a webhook URL's: `code`, its name for the problem; `reason`, its sentence. */
  urlRefused: (code: string, reason: string) => ({ code, reason }),
  /** Offers are priced from the source: deleting it would leave them without a reference. */
  inUse: (offers: number) => ({ offers }),
});
