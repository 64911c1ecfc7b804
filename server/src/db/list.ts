import { sql, type Compilable, type SelectQueryBuilder } from 'kysely';
import type { Executor } from './database.js';
import { memoQuery } from './memo.js';

export type DateRange = Partial<Record<'gte' | 'gt' | 'lte' | 'lt', Date>>;
export type FilterValue = boolean | number | string | DateRange;

/** A list request as parsed from its query string (http/list-query.ts): a page, whitelisted filters and sorts. */
export interface ListParams {
  skip: number;
  limit: number;
  filter: Record<string, FilterValue>;
  sort: [string, 'ASC' | 'DESC'][];
}

const OPERATORS = { eq: '=', gte: '>=', gt: '>', lte: '<=', lt: '<' } as const;

/** One `column <op> value` of a filter: `{status: "X"}` is one, `{createdAt: {gte, lt}}` two. */
interface Condition { field: string; op: keyof typeof OPERATORS; value: unknown }

function conditionsOf(filter: ListParams['filter']): Condition[] {
  const out: Condition[] = [];
  for (const [field, value] of Object.entries(filter)) {
    if (typeof value === 'object' && !(value instanceof Date)) {
      for (const op of Object.keys(value) as (keyof DateRange)[]) out.push({ field, op, value: value[op] });
    } else {
      out.push({ field, op: 'eq', value });
    }
  }
  return out;
}

/** The column of a whitelisted field; an inherited key (`constructor`) is never a column. */
function column(columns: Record<string, string>, field: string): string {
  if (!Object.hasOwn(columns, field)) throw new TypeError(`no column for field ${field}`);
  return columns[field]!;
}

function applyConditions<DB, TB extends keyof DB, O>(qb: SelectQueryBuilder<DB, TB, O>, conditions: Condition[], columns: Record<string, string>) {
  let out = qb;
  for (const c of conditions) out = out.where(sql<boolean>`${sql.ref(column(columns, c.field))} ${sql.raw(OPERATORS[c.op])} ${c.value}`);
  return out;
}

/** Applies a parsed sort; a stable tiebreak on the id column keeps pages from overlapping. */
function applySort<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  sort: ListParams['sort'],
  columns: Record<string, string>,
): SelectQueryBuilder<DB, TB, O> {
  let out = qb;
  for (const [field, dir] of sort) out = out.orderBy(sql.ref(column(columns, field)), dir === 'ASC' ? 'asc' : 'desc');
  if (!sort.some(([field]) => field === 'id')) out = out.orderBy(sql.ref(columns.id), 'asc');
  return out;
}

export interface Page<Row> { rows: Row[]; total: number }

/** Past this many filter-and-sort shapes of one list, pages are built per request instead of cached. */
const MAX_SHAPES = 200;

/**
 * A paged list: `from(db, scope)` gives the rows in scope, `select` the columns of a page. Each call returns
 * one page and the total of all its matches in one round trip: the page comes from an index-ordered `limit`,
 * the total from an uncorrelated `(select count(*) …)` that PostgreSQL runs once (a `count(*) over()` would
 * join and sort every match to return twenty). Only a page past the end needs a second query for the total.
 *
 * The SQL of each filter-and-sort shape is compiled once (memoQuery): building it with Kysely cost a fifth of
 * a list request's CPU. `scope` must be a flat record of values, as memoQuery's parameters are.
 */
export function pageQuery<S extends object, DB, TB extends keyof DB, O, Row>(
  from: (db: Executor, scope: S) => SelectQueryBuilder<DB, TB, O>,
  columns: Record<string, string>,
  // The page may join more tables than the count needs.
  select: (qb: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<any, any, Row>,
): (db: Executor, scope: S, params: ListParams) => Promise<Page<Row>> {
  type PageRow = Row & { page_total: number };
  const count = (db: Executor, scope: S, conditions: Condition[]) =>
    applyConditions(from(db, scope), conditions, columns).select(sql<number>`count(*)::int`.as('total'));
  const page = (db: Executor, q: PageRequest<S>) =>
    applySort(select(applyConditions(from(db, q.scope), q.conditions, columns)).select(sql<number>`(${count(db, q.scope, q.conditions)})`.as('page_total')), q.sort, columns)
      .offset(q.skip).limit(q.limit) as unknown as Compilable<PageRow>;
  const shapes = new Map<string, (db: Executor, values: Values) => Promise<PageRow[]>>();
  return async (db, scope, params) => {
    const q: PageRequest<S> = { scope, conditions: conditionsOf(params.filter), sort: params.sort, skip: params.skip, limit: params.limit };
    const shape = [Object.keys(scope), q.conditions.map((c) => `${c.field}:${c.op}`), q.sort.map(([f, d]) => `${f}:${d}`)].join('|');
    let run = shapes.get(shape);
    if (!run && shapes.size < MAX_SHAPES) {
      run = memoQuery((d, values: Values) => page(d, withValues(q, values)));
      shapes.set(shape, run);
    }
    const rows = run ? await run(db, valuesOf(q)) : (await db.executeQuery(page(db, q).compile())).rows;
    if (rows.length > 0) return { rows, total: rows[0].page_total };
    if (params.skip === 0) return { rows, total: 0 };
    const counted = await count(db, scope, q.conditions).executeTakeFirstOrThrow();
    return { rows, total: (counted as unknown as { total: number }).total };
  };
}

interface PageRequest<S> { scope: S; conditions: Condition[]; sort: ListParams['sort']; skip: number; limit: number }
type Values = Record<string, unknown>;

/** The parameters of a page request, flat, as memoQuery takes them; the rest of the request is its shape. */
function valuesOf<S extends object>(q: PageRequest<S>): Values {
  const values: Values = { skip: q.skip, limit: q.limit };
  for (const [k, v] of Object.entries(q.scope)) values[`scope.${k}`] = v;
  q.conditions.forEach((c, i) => { values[`filter.${i}`] = c.value; });
  return values;
}

/** The request of this shape with the given values (memoQuery's placeholders, or real ones to verify). */
function withValues<S extends object>(shape: PageRequest<S>, values: Values): PageRequest<S> {
  const scope = Object.fromEntries(Object.keys(shape.scope).map((k) => [k, values[`scope.${k}`]])) as S;
  const conditions = shape.conditions.map((c, i) => ({ ...c, value: values[`filter.${i}`] }));
  return { scope, conditions, sort: shape.sort, skip: values.skip as number, limit: values.limit as number };
}
