import { declareErrors } from '../../domain-error.js';

/** Why a turnover report was refused: its range or its time zone. */
export const ReportError = declareErrors('reports', {
  /** `from` or `to` is not a calendar date. */
  notADate: (field: 'from' | 'to') => ({ field }),
  toBeforeFrom: () => ({}),
  rangeTooLong: (maxDays: number) => ({ maxDays }),
  unknownTimeZone: (tz: string) => ({ tz }),
  /** A day of the range does not start on a quarter of an hour in the zone (local mean time, long ago). */
  offQuarter: (tz: string, date: string) => ({ tz, date }),
});
