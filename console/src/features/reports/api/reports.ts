import { api, unwrap } from '../../../lib/api/client';
import type { Response } from '../../../lib/api/types';

export type TurnoverReport = Response<'/api/v1/admin/reports/turnover', 'get'>;
export type TurnoverRow = TurnoverReport['data'][number];
export type GroupBy = TurnoverReport['groupBy'];

export interface TurnoverQuery {
  from: string;
  to: string;
  groupBy: GroupBy;
  tz: string;
  exchangeId: number | null;
}

const query = ({ exchangeId, ...q }: TurnoverQuery) => ({ ...q, ...(exchangeId === null ? {} : { exchangeId }) });

// The operation also answers text/csv, which the typed client counts as a possible body; JSON is what is asked here.
export const getTurnover = (q: TurnoverQuery) =>
  unwrap(api.GET('/api/v1/admin/reports/turnover', { params: { query: query(q) } })) as Promise<TurnoverReport>;

/** The same rows as the API's CSV. */
export const exportTurnover = (q: TurnoverQuery) =>
  unwrap(
    api.GET('/api/v1/admin/reports/turnover', { params: { query: { ...query(q), format: 'csv' } }, parseAs: 'blob' }),
  ) as Promise<Blob>;
