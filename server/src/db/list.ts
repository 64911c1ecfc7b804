import { CompiledQuery, sql, type Compilable, type Expression, type SelectQueryBuilder } from 'kysely';
import type { Executor } from './database.js';
import { applyConditions, column, conditionsOf, type Condition, type FilterValue } from './list-filter.js';
import {
  afterCursor,
  decodeCursor,
  encodeCursor,
  invalidCursor,
  isDataException,
  keyColumns,
  sortKeyOf,
  type CursorValues,
  type SortKey,
} from './keyset.js';
import { memoQuery } from './memo.js';
import { PLAN_PER_EXECUTION } from './prepared.js';

export type { Condition, DateRange, FilterValue } from './list-filter.js';

/** A list request as parsed from its query string (http/list-query.ts): a page, whitelisted filters and sorts. */
export interface ListParams {
  skip: number;
  limit: number;
  filter: Record<string, FilterValue>;
  sort: [string, 'ASC' | 'DESC'][];
  /** `meta.nextCursor` of the previous page: the page starts after it (then `skip` is 0). */
  cursor?: string;
}

/** Orders by the list's key (the sort, then the id, which keeps pages from overlapping). */
function applySort<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  key: SortKey,
  columns: Record<string, string>,
): SelectQueryBuilder<DB, TB, O> {
  let out = qb;
  for (const [field, dir] of key) out = out.orderBy(sql.ref(column(columns, field)), dir === 'ASC' ? 'asc' : 'desc');
  return out;
}

/**
 * One page: its rows, the total of all matches (a lower bound when `totalCapped`), and the cursor of the next
 * page (null on the last one).
 */
export interface Page<Row> {
  rows: Row[];
  total: number;
  totalCapped: boolean;
  nextCursor: string | null;
}

/** Past this many matches a list that keeps no exact count stops counting and says so (docs/decisions.md, "Lists at scale"). */
export const COUNT_CAP = 10_000;

/** Past this many filter-and-sort shapes of one list, pages are built per request instead of cached. */
const MAX_SHAPES = 200;

/** The SQL of a list's exact total for this scope and filter, or null when the list keeps none for it. */
export type ExactTotal<S> = (scope: S, conditions: readonly Condition[]) => Expression<number> | null;

export interface PageOptions<S> {
  /** Sort fields whose column may be null (the cursor condition must then place the nulls). */
  nullable?: readonly string[];
  exactTotal?: ExactTotal<S>;
  /**
   * The list's rows per UTC day of `createdAt` in this scope (`table`'s `day` and `n` where `where` holds; migration
   * 016), or null: a window's total is then the days wholly inside it and the rows of its edge days, counted up to
   * the cap. Past the cap from the days alone, no row is read. The total means what the capped count's meant.
   */
  dayCounts?: (scope: S) => { table: string; where: Expression<boolean> } | null;
  /** A condition of the page's rows in this order that the count does not need (it only steers the plan). */
  pageBound?: (scope: S, key: SortKey, conditions: readonly Condition[]) => Expression<boolean> | null;
  /**
   * Plan each page for its values (plannedPerExecution below): for a list that can hold a history of millions of
   * rows. A small list (a branch's offers, staff, keys) keeps its prepared plan, which saves the planning.
   */
  planEachTime?: boolean;
}

/**
 * A paged list: `from(db, scope)` gives the rows in scope, `select` the columns of a page. Each call returns
 * one page and the total of its matches in one round trip. The page comes from an index-ordered `limit`, after
 * `skip` rows or after the cursor's key (keyset paging, whose cost does not grow with the depth). The total is
 * an uncorrelated subquery that PostgreSQL runs once: the list's exact count when it keeps one
 * (`exactTotal`), otherwise a count that stops at COUNT_CAP + 1 rows. Only an empty page needs a second query
 * for the total.
 *
 * The SQL of each filter-and-sort shape is compiled once (memoQuery): building it with Kysely cost a fifth of
 * a list request's CPU. `scope` must be a flat record of values, as memoQuery's parameters are.
 */
export function pageQuery<S extends object, DB, TB extends keyof DB, O, Row>(
  from: (db: Executor, scope: S) => SelectQueryBuilder<DB, TB, O>,
  columns: Record<string, string>,
  // The page may join more tables than the count needs.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the joined tables are the caller's: only Row is read back
  select: (qb: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<any, any, Row>,
  options: PageOptions<S> = {},
): (db: Executor, scope: S, params: ListParams) => Promise<Page<Row>> {
  type PageRow = Row & { page_total: number } & Record<`__key${number}`, string | null>;
  const nullable = new Set(options.nullable ?? []);
  const planned = <R>(query: Compilable<R>): Compilable<R> =>
    options.planEachTime ? plannedPerExecution(query) : query;
  const total = (db: Executor, scope: S, conditions: Condition[]): Expression<number> => {
    const exact = options.exactTotal?.(scope, conditions);
    if (exact) return exact;
    const matches = applyConditions(from(db, scope), conditions, columns);
    const capped = (qb: typeof matches) =>
      sql<number>`(select count(*)::int from (${qb.select(sql`1`.as('one')).limit(COUNT_CAP + 1)}) as capped)`;
    const days = isWindow(conditions) ? options.dayCounts?.(scope) : null;
    if (!days) return capped(matches);
    const created = sql.ref(column(columns, 'createdAt'));
    const inside = conditions.map((c) =>
      isLower(c) ? sql<boolean>`day > ${dayOf(c.value)}` : sql<boolean>`day < ${dayOf(c.value)}`,
    );
    const edges = conditions.map((c) =>
      isLower(c)
        ? sql<boolean>`${created} < (${dayOf(c.value)} + 1)::timestamp at time zone 'UTC'`
        : sql<boolean>`${created} >= ${dayOf(c.value)}::timestamp at time zone 'UTC'`,
    );
    // The edges' count is an initplan of the ELSE branch: PostgreSQL runs it only when that branch is taken.
    return sql<number>`(select case when inside.n > ${sql.lit(COUNT_CAP)} then ${sql.lit(COUNT_CAP + 1)}
      else inside.n + ${capped(matches.where(sql<boolean>`(${sql.join(edges, sql` or `)})`))} end
      from (select coalesce(sum(n), 0)::int as n from ${sql.table(days.table)} where ${sql.join([days.where, ...inside], sql` and `)}) as inside)`;
  };
  const page = (db: Executor, q: PageRequest<S>) => {
    let qb = applyConditions(from(db, q.scope), q.conditions, columns);
    if (q.cursor) qb = qb.where(afterCursor(q.key, columns, nullable, q.cursor));
    const bound = options.pageBound?.(q.scope, q.key, q.conditions);
    if (bound) qb = qb.where(bound);
    return planned(
      applySort(
        select(qb)
          .select(keyColumns(q.key, columns))
          .select(sql<number>`${total(db, q.scope, q.conditions)}`.as('page_total')),
        q.key,
        columns,
      )
        // q.limit is one more than the page's, to know whether a next page exists.
        .offset(q.skip)
        .limit(q.limit) as unknown as Compilable<PageRow>,
    );
  };
  const shapes = new Map<string, (db: Executor, values: Values) => Promise<PageRow[]>>();
  return async (db, scope, params) => {
    const key = sortKeyOf(params.sort);
    const cursor = params.cursor === undefined ? null : decodeCursor(params.cursor, key, columns);
    const q: PageRequest<S> = {
      scope,
      conditions: conditionsOf(params.filter),
      key,
      cursor,
      skip: params.skip,
      limit: params.limit + 1,
    };
    const shape = [
      Object.keys(scope),
      q.conditions.map((c) => `${c.field}:${c.op}`),
      key.map(([f, d]) => `${f}:${d}`),
      cursor ? cursor.map((v) => (v === null ? 'null' : 'v')) : 'first',
    ].join('|');
    let run = shapes.get(shape);
    if (!run && shapes.size < MAX_SHAPES) {
      run = memoQuery((d, values: Values) => page(d, withValues(q, values)));
      shapes.set(shape, run);
    }
    let rows: PageRow[];
    try {
      rows = run ? await run(db, valuesOf(q)) : (await db.executeQuery(page(db, q).compile())).rows;
    } catch (err) {
      // A cursor's value that is no value of its column (the cursor was tampered with) is the caller's error.
      if (cursor && isDataException(err)) throw invalidCursor();
      throw err;
    }
    let nextCursor: string | null = null;
    if (rows.length > params.limit) {
      rows = rows.slice(0, params.limit);
      const last = rows[rows.length - 1];
      nextCursor = encodeCursor(
        key,
        columns,
        key.map((_, i) => last[`__key${i}`]),
      );
    }
    const counted =
      rows.length > 0
        ? rows[0].page_total
        : params.skip === 0 && !cursor
          ? 0
          : (
              await db.executeQuery(
                planned(db.selectNoFrom(sql<number>`${total(db, scope, q.conditions)}`.as('total'))).compile(),
              )
            ).rows[0]!.total;
    // Whether this list keeps an exact count for the filter depends on its fields only, not on their values.
    const totalCapped = counted > COUNT_CAP && !options.exactTotal?.(scope, q.conditions);
    return { rows, total: totalCapped ? COUNT_CAP : counted, totalCapped, nextCursor };
  };
}

/** The UTC day of a `createdAt` bound, as the per-day counters of migration 016 key their rows. */
export const dayOf = (value: unknown) => sql<string>`(${value}::timestamptz at time zone 'UTC')::date`;

/** A filter that is a window of `createdAt` and nothing else. */
const isWindow = (conditions: readonly Condition[]) =>
  conditions.length > 0 && conditions.every((c) => c.field === 'createdAt' && c.op !== 'eq');
const isLower = (c: Condition) => c.op === 'gte' || c.op === 'gt';

/**
 * A page's statement, planned for its values on every execution (db/prepared.ts). Its best plan depends on them:
 * as a generic plan, chosen once for every LIMIT and every bound of a range, `createdAt < T` newest first read
 * and sorted the whole branch of a million orders for 20 rows (0.5 s instead of 4 ms). Planning a page
 * costs 0.2–0.4 ms, once per request; a generic plan's misjudgement costs what the branch's history costs.
 */
function plannedPerExecution<Row>(query: Compilable<Row>): Compilable<Row> {
  return {
    compile() {
      const compiled = query.compile();
      return CompiledQuery.raw(PLAN_PER_EXECUTION + compiled.sql, [...compiled.parameters]) as CompiledQuery<Row>;
    },
  };
}

interface PageRequest<S> {
  scope: S;
  conditions: Condition[];
  key: SortKey;
  cursor: CursorValues | null;
  skip: number;
  limit: number;
}
type Values = Record<string, unknown>;

/** The parameters of a page request, flat, as memoQuery takes them; the rest of the request is its shape. */
function valuesOf<S extends object>(q: PageRequest<S>): Values {
  const values: Values = { skip: q.skip, limit: q.limit };
  for (const [k, v] of Object.entries(q.scope)) values[`scope.${k}`] = v;
  q.conditions.forEach((c, i) => {
    values[`filter.${i}`] = c.value;
  });
  q.cursor?.forEach((v, i) => {
    values[`cursor.${i}`] = v;
  });
  return values;
}

/** The request of this shape with the given values (memoQuery's placeholders, or real ones to verify). */
function withValues<S extends object>(shape: PageRequest<S>, values: Values): PageRequest<S> {
  const scope = Object.fromEntries(Object.keys(shape.scope).map((k) => [k, values[`scope.${k}`]])) as S;
  const conditions = shape.conditions.map((c, i) => ({ ...c, value: values[`filter.${i}`] }));
  const cursor = shape.cursor && shape.cursor.map((_, i) => values[`cursor.${i}`] as string | null);
  return { scope, conditions, key: shape.key, cursor, skip: values.skip as number, limit: values.limit as number };
}

/** The page with each row presented; the counts and the cursor unchanged. */
export function mapPage<Row, Out>(page: Page<Row>, view: (row: Row) => Out): Page<Out> {
  return { rows: page.rows.map(view), total: page.total, totalCapped: page.totalCapped, nextCursor: page.nextCursor };
}
