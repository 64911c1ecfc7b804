import { COUNT_CAP, type ListParams, type Page } from '../../db/list.js';
import { decodeCursor, encodeCursor, sortKeyOf, type SortKey } from '../../db/keyset.js';
import { Dec } from '../pricing/decimal.js';
import { OFFER_COLUMNS } from '../offers/service.js';
import type { BranchCatalog, SnapshotOffer } from './snapshot-build.js';
import { offerRow } from './snapshot-reads.js';

// The partner offers list over a snapshot: the rows, order, totals and cursors of db/list.ts's pageQuery.

type Field = keyof typeof OFFER_COLUMNS;
const FILTERS: Record<string, (o: SnapshotOffer) => unknown> = {
  isActive: (o) => o.is_active,
  exchangeId: (o) => o.exchange_id,
  currency1Id: (o) => o.currency1_id,
  currency2Id: (o) => o.currency2_id,
};
const compareNumber = (a: number, b: number) => a - b;
const compareDecimal = (a: string, b: string) => new Dec(a).cmp(new Dec(b));
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** Each sort field: how two offers compare on it, and its value as the cursor holds it (the column as text). */
const SORTS: Record<
  string,
  { cmp: (a: SnapshotOffer, b: SnapshotOffer) => number; text: (o: SnapshotOffer) => string }
> = {
  id: { cmp: (a, b) => compareNumber(a.id, b.id), text: (o) => String(o.id) },
  exchangeId: { cmp: (a, b) => compareNumber(a.exchange_id, b.exchange_id), text: (o) => String(o.exchange_id) },
  currency1Id: { cmp: (a, b) => compareNumber(a.currency1_id, b.currency1_id), text: (o) => String(o.currency1_id) },
  currency2Id: { cmp: (a, b) => compareNumber(a.currency2_id, b.currency2_id), text: (o) => String(o.currency2_id) },
  rate: { cmp: (a, b) => compareDecimal(a.rate, b.rate), text: (o) => o.rate },
  minAmount: { cmp: (a, b) => compareDecimal(a.min_amount, b.min_amount), text: (o) => o.min_amount },
  maxAmount: { cmp: (a, b) => compareDecimal(a.max_amount, b.max_amount), text: (o) => o.max_amount },
  createdAt: { cmp: (a, b) => compareText(a.created_order, b.created_order), text: (o) => o.created_text },
  updatedAt: { cmp: (a, b) => compareText(a.updated_order, b.updated_order), text: (o) => o.updated_text },
};

function comparator(key: SortKey) {
  return (a: SnapshotOffer, b: SnapshotOffer) => {
    for (const [field, dir] of key) {
      const d = SORTS[field]!.cmp(a, b);
      if (d !== 0) return dir === 'ASC' ? d : -d;
    }
    return 0;
  };
}

const INTEGER = /^-?\d{1,15}$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;
// A UTC timestamp as PostgreSQL writes it in this service's sessions; its digits order as the instant does.
const TIMESTAMP = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?\+00$/;

/** A cursor's text value as the sort field's comparable form, or undefined for any text but the plain forms. */
function cursorValue(field: string, text: string): SnapshotOffer | undefined {
  const o = {} as Record<string, unknown>;
  const columns: Record<string, string> = {
    id: 'id',
    exchangeId: 'exchange_id',
    currency1Id: 'currency1_id',
    currency2Id: 'currency2_id',
  };
  if (columns[field]) {
    if (!INTEGER.test(text)) return undefined;
    o[columns[field]] = Number(text);
  } else if (field === 'rate' || field === 'minAmount' || field === 'maxAmount') {
    if (!DECIMAL.test(text)) return undefined;
    o[{ rate: 'rate', minAmount: 'min_amount', maxAmount: 'max_amount' }[field]] = text;
  } else {
    const m = TIMESTAMP.exec(text);
    if (!m) return undefined;
    o[field === 'createdAt' ? 'created_order' : 'updated_order'] =
      `${m.slice(1, 7).join('')}${(m[7] ?? '').padEnd(6, '0')}`;
  }
  return o as unknown as SnapshotOffer;
}

/**
 * The offers after a cursor, in the key's order: a row comes after when, on the first key field where it differs
 * from the cursor's values, it is greater (ascending) or smaller (descending), which is what the SQL's row or
 * spelled-out comparison says (none of the offers list's sort columns is nullable). Undefined when a value is
 * not in the plain form this reads; the database then answers (and refuses what is no value of the column).
 */
function afterCursor(
  sorted: SnapshotOffer[],
  key: SortKey,
  values: readonly (string | null)[],
): SnapshotOffer[] | undefined {
  const at: SnapshotOffer[] = [];
  for (let i = 0; i < key.length; i++) {
    const v = values[i] === null ? undefined : cursorValue(key[i]![0], values[i]!);
    if (!v) return undefined;
    at.push(v);
  }
  const after = (o: SnapshotOffer) => {
    for (let i = 0; i < key.length; i++) {
      const d = SORTS[key[i]![0]]!.cmp(o, at[i]!);
      if (d !== 0) return key[i]![1] === 'ASC' ? d > 0 : d < 0;
    }
    return false;
  };
  return sorted.filter(after);
}

/**
 * A page of the offers list as db/list.ts's pageQuery gives it: filters, any allowed sort, `skip` or a cursor,
 * the capped total (of the filter, not of the rows after the cursor) and the next page's cursor.
 */
export function offersPageOf(c: BranchCatalog, params: ListParams): Page<ReturnType<typeof offerRow>> | undefined {
  for (const field of Object.keys(params.filter)) if (!FILTERS[field]) return undefined;
  for (const [field] of params.sort) if (!SORTS[field] || !(field in OFFER_COLUMNS)) return undefined;
  const filters = Object.entries(params.filter).map(([field, value]) => [FILTERS[field]!, value] as const);
  let matches =
    filters.length === 0 ? c.offers : c.offers.filter((o) => filters.every(([get, value]) => get(o) === value));
  const key = sortKeyOf(params.sort);
  // A malformed cursor, or one of another list or sort, is refused here as the database path refuses it.
  const cursor = params.cursor === undefined ? undefined : decodeCursor(params.cursor, key, OFFER_COLUMNS);
  if (!(key.length === 1 && key[0]![0] === 'id' && key[0]![1] === 'ASC')) matches = [...matches].sort(comparator(key));
  const rest = cursor ? afterCursor(matches, key, cursor) : matches;
  if (!rest) return undefined;
  const end = params.skip + params.limit;
  const rows = rest.slice(params.skip, end);
  const last = rows[rows.length - 1];
  const nextCursor =
    rest.length > end && last
      ? encodeCursor(
          key,
          OFFER_COLUMNS,
          key.map(([field]) => SORTS[field as Field]!.text(last)),
        )
      : null;
  const totalCapped = matches.length > COUNT_CAP;
  return {
    rows: rows.map((o) => offerRow(c, o)),
    total: totalCapped ? COUNT_CAP : matches.length,
    totalCapped,
    nextCursor,
  };
}
