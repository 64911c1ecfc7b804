import type { TurnoverQuery } from './reports';

/** The query keys of reports: the turnover of a period, grouped one way, in one time zone. */
export const reportKeys = {
  all: ['reports'] as const,
  turnover: (q: TurnoverQuery) => [...reportKeys.all, 'turnover', q] as const,
};
