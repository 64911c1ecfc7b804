import { sql, type SelectQueryBuilder } from 'kysely';
import type { DateRange, ListParams } from '../http/list-query.js';

const RANGE_SQL = { gte: '>=', gt: '>', lte: '<=', lt: '<' } as const;

/**
 * Applies a parsed filter and sort to a query. `columns` maps each whitelisted API field to its column;
 * a stable tiebreak on the id column keeps pages from overlapping.
 */
export function applyFilter<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  filter: ListParams['filter'],
  columns: Record<string, string>,
): SelectQueryBuilder<DB, TB, O> {
  let out = qb;
  for (const [field, value] of Object.entries(filter)) {
    const column = sql.ref(columns[field]);
    if (typeof value === 'object' && !(value instanceof Date)) {
      for (const [op, date] of Object.entries(value as DateRange)) {
        out = out.where(sql<boolean>`${column} ${sql.raw(RANGE_SQL[op as keyof DateRange])} ${date}`);
      }
    } else {
      out = out.where(sql<boolean>`${column} = ${value}`);
    }
  }
  return out;
}

export function applySort<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  sort: ListParams['sort'],
  columns: Record<string, string>,
): SelectQueryBuilder<DB, TB, O> {
  let out = qb;
  for (const [field, dir] of sort) out = out.orderBy(sql.ref(columns[field]), dir === 'ASC' ? 'asc' : 'desc');
  if (!sort.some(([field]) => field === 'id')) out = out.orderBy(sql.ref(columns.id), 'asc');
  return out;
}
