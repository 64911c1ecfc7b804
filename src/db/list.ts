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

export interface Page<Row> { rows: Row[]; total: number }

/**
 * One page of a filtered list and the total of all its matches, in one round trip: the page comes from an
 * index-ordered `limit`, the total from an uncorrelated `(select count(*) …)` that PostgreSQL runs once. A
 * `count(*) over()` would instead join and sort every match to return twenty. Only a page past the end
 * needs a second query for the total.
 */
export async function fetchPage<DB, TB extends keyof DB, O, Row>(
  base: () => SelectQueryBuilder<DB, TB, O>,
  params: ListParams,
  columns: Record<string, string>,
  // The page may join more tables than the count needs.
  select: (qb: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<any, any, Row>,
): Promise<Page<Row>> {
  const filtered = () => applyFilter(base(), params.filter, columns);
  const count = () => filtered().select(sql<number>`count(*)::int`.as('total'));
  const rows = (await applySort(select(filtered()).select(sql<number>`(${count()})`.as('page_total')), params.sort, columns)
    .offset(params.skip).limit(params.limit).execute()) as (Row & { page_total: number })[];
  if (rows.length > 0) return { rows, total: rows[0].page_total };
  if (params.skip === 0) return { rows, total: 0 };
  const counted = await count().executeTakeFirstOrThrow();
  return { rows, total: (counted as unknown as { total: number }).total };
}
