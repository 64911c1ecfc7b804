import { declareErrors } from '../../domain-error.js';

/** Why an exchange could not be read or written. */
export const ExchangeError = declareErrors('exchanges', {
  exchangeNotFound: () => ({}),
  unknownTimeZone: (timezone: string) => ({ timezone }),
  scheduleDayTwice: (index: number, dayOfWeek: number) => ({ index, dayOfWeek }),
  scheduleTimeMissing: (index: number, field: 'openTime' | 'closeTime') => ({ index, field }),
  scheduleClosesBeforeOpening: (index: number, openTime: string) => ({ index, openTime }),
});
