import { sql, type SelectQueryBuilder } from 'kysely';

export type DateRange = Partial<Record<'gte' | 'gt' | 'lte' | 'lt', Date>>;
export type FilterValue = boolean | number | string | DateRange;

const OPERATORS = { eq: '=', gte: '>=', gt: '>', lte: '<=', lt: '<' } as const;

/** One `column <op> value` of a filter: `{status: "X"}` is one, `{createdAt: {gte, lt}}` two. */
export interface Condition {
  field: string;
  op: keyof typeof OPERATORS;
  value: unknown;
}

export function conditionsOf(filter: Record<string, FilterValue>): Condition[] {
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
export function column(columns: Record<string, string>, field: string): string {
  if (!Object.hasOwn(columns, field)) throw new TypeError(`no column for field ${field}`);
  return columns[field]!;
}

export function applyConditions<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  conditions: Condition[],
  columns: Record<string, string>,
) {
  let out = qb;
  for (const c of conditions)
    out = out.where(sql<boolean>`${sql.ref(column(columns, c.field))} ${sql.raw(OPERATORS[c.op])} ${c.value}`);
  return out;
}
