import type { DateRange, FilterValue, ListParams, Page } from '../db/list.js';
import { badRequest } from './errors.js';
// Every integer a list filters on is an id in an `integer` column.
import { INT4_MAX } from './schemas.js';
import { isStorableInstant, isStorableText, unstorableTextMessage } from './validators.js';

export type FilterKind =
  | { type: 'boolean' }
  | { type: 'integer' }
  | { type: 'enum'; values: readonly string[] }
  /** An exact match on a text column; `lowerCase` for a column stored lower-case (emails). */
  | { type: 'string'; maxLength: number; lowerCase?: boolean }
  | { type: 'dateRange' };

export interface ListSpec {
  filters: Record<string, FilterKind>;
  sorts: readonly string[];
}

const RANGE_OPERATORS = new Set(['gte', 'gt', 'lte', 'lt']);

/** Parses `filter` and `sort` (JSON in the query string) against a whitelist; anything else is a 400 naming it. */
export function parseListQuery(
  query: { skip?: number; limit?: number; filter?: string; sort?: string; cursor?: string },
  spec: ListSpec,
): ListParams {
  // A cursor replaces skip: both at once would be an offset again, whose cost grows with the depth.
  if (query.cursor !== undefined && (query.skip ?? 0) > 0)
    throw badRequest('cursor and skip cannot be combined; use one or the other', { cursor: 'withSkip' });
  return {
    cursor: query.cursor,
    skip: query.skip ?? 0,
    limit: query.limit ?? 25,
    filter: query.filter === undefined ? {} : parseFilter(query.filter, spec),
    sort: query.sort === undefined ? [['id', 'ASC']] : parseSort(query.sort, spec),
  };
}

function parseJson(text: string, param: 'filter' | 'sort'): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest(`${param} must be valid JSON`, { [param]: 'invalidJson' });
  }
}

function parseFilter(text: string, spec: ListSpec): Record<string, FilterValue> {
  const value = parseJson(text, 'filter');
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('filter must be a JSON object', { filter: 'invalidType' });
  }
  const out: Record<string, FilterValue> = {};
  for (const [field, raw] of Object.entries(value)) {
    // Own properties only: `constructor` or `__proto__` must be unknown fields, not Object.prototype's members.
    const kind = Object.hasOwn(spec.filters, field) ? spec.filters[field] : undefined;
    if (!kind)
      throw badRequest(`filter field ${field} is not supported; use one of: ${Object.keys(spec.filters).join(', ')}`, {
        [`filter.${field}`]: 'notAllowed',
      });
    out[field] = filterValue(field, kind, raw);
  }
  return out;
}

function filterValue(field: string, kind: FilterKind, raw: unknown): FilterValue {
  const invalid = (what: string) =>
    badRequest(`filter.${field} must be ${what}`, { [`filter.${field}`]: 'invalidValue' });
  switch (kind.type) {
    case 'boolean':
      if (typeof raw !== 'boolean') throw invalid('a boolean');
      return raw;
    case 'integer':
      if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < -INT4_MAX - 1 || raw > INT4_MAX)
        throw invalid(`an integer from ${-INT4_MAX - 1} to ${INT4_MAX}`);
      return raw;
    case 'string':
      if (typeof raw !== 'string' || raw.length === 0 || raw.length > kind.maxLength)
        throw invalid(`a string of 1 to ${kind.maxLength} characters`);
      if (!isStorableText(raw)) {
        throw badRequest(unstorableTextMessage(`filter.${field}`), { [`filter.${field}`]: 'invalidCharacter' });
      }
      return kind.lowerCase ? raw.toLowerCase() : raw;
    case 'enum':
      if (typeof raw !== 'string' || !kind.values.includes(raw)) throw invalid(`one of: ${kind.values.join(', ')}`);
      return raw;
    case 'dateRange': {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || Object.keys(raw).length === 0) {
        throw invalid('an object with gte, gt, lte or lt');
      }
      const range: DateRange = {};
      for (const [op, v] of Object.entries(raw)) {
        if (!RANGE_OPERATORS.has(op)) throw invalid('an object with gte, gt, lte or lt');
        if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(v) || !isStorableInstant(v))
          throw invalid('a range of ISO 8601 date-times');
        range[op as keyof DateRange] = new Date(v);
      }
      return range;
    }
  }
}

function parseSort(text: string, spec: ListSpec): [string, 'ASC' | 'DESC'][] {
  const value = parseJson(text, 'sort');
  const shape = () => badRequest('sort must be a JSON array of [field, "ASC"|"DESC"] pairs', { sort: 'invalidType' });
  if (!Array.isArray(value) || value.length === 0 || value.length > spec.sorts.length) throw shape();
  const seen = new Set<string>();
  return value.map((pair) => {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || typeof pair[1] !== 'string')
      throw shape();
    const [field, direction] = pair as [string, string];
    if (!spec.sorts.includes(field))
      throw badRequest(`sort field ${field} is not supported; use one of: ${spec.sorts.join(', ')}`, {
        [`sort.${field}`]: 'notAllowed',
      });
    const dir = direction.toUpperCase();
    if (dir !== 'ASC' && dir !== 'DESC')
      throw badRequest(`sort direction ${direction} must be ASC or DESC`, { [`sort.${field}`]: 'invalidValue' });
    if (seen.has(field)) throw badRequest(`sort field ${field} is repeated`, { [`sort.${field}`]: 'duplicate' });
    seen.add(field);
    return [field, dir];
  });
}

/** The `meta` of a list envelope (docs/decisions.md, "Lists at scale"): `totalCapped` only when the count stopped at the cap. */
export function listMeta(
  page: Pick<Page<unknown>, 'total' | 'totalCapped' | 'nextCursor'>,
  params: { skip: number; limit: number },
) {
  return page.totalCapped
    ? { total: page.total, totalCapped: true, skip: params.skip, limit: params.limit, nextCursor: page.nextCursor }
    : { total: page.total, skip: params.skip, limit: params.limit, nextCursor: page.nextCursor };
}

/** A list whose filters are query parameters of their own and whose order is fixed: the page part, checked alike. */
export function fixedListParams(
  query: { skip?: number; limit?: number; cursor?: string },
  filter: ListParams['filter'],
  sort: ListParams['sort'],
): ListParams {
  const page = parseListQuery(
    { skip: query.skip, limit: query.limit, cursor: query.cursor },
    { filters: {}, sorts: [] },
  );
  return { cursor: page.cursor, skip: page.skip, limit: page.limit, filter, sort };
}
