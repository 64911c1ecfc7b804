import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { pageQuery, type ListParams } from '../../db/list.js';
import { memoQuery } from '../../db/memo.js';
import { inScope, scopeValues, type Scope, type ScopeValues } from '../../db/scope.js';

// Exchanges (cashboxes) and their weekly hours: the partner catalogue's reads and the back office's writes.

export interface ScheduleRow {
  dayOfWeek: number;
  openTime: string;
  closeTime: string;
  isClosed: boolean;
}
export interface ScheduleDay {
  dayOfWeek: number;
  openTime: string | null;
  closeTime: string | null;
  isClosed: boolean;
}

/** Opening hours as partners read them, ordered by day; closed days without hours read 00:00. */
export const publicSchedule = (exchangeId: ReturnType<typeof sql.ref>) => sql<ScheduleRow[]>`coalesce((
  select json_agg(json_build_object(
    'dayOfWeek', s.day_of_week,
    'openTime', coalesce(to_char(s.open_time, 'HH24:MI'), '00:00'),
    'closeTime', coalesce(to_char(s.close_time, 'HH24:MI'), '00:00'),
    'isClosed', s.is_closed) order by s.day_of_week)
  from exchange_schedule s where s.exchange_id = ${exchangeId}), '[]'::json)`;

/** Opening hours as stored: a closed day has no times. */
const schedule = sql<ScheduleDay[]>`coalesce((
  select json_agg(json_build_object(
    'dayOfWeek', s.day_of_week, 'openTime', to_char(s.open_time, 'HH24:MI'), 'closeTime', to_char(s.close_time, 'HH24:MI'), 'isClosed', s.is_closed
  ) order by s.day_of_week)
  from exchange_schedule s where s.exchange_id = e.id), '[]'::json)`;

const publicExchangesQuery = memoQuery((db, scope: ScopeValues) =>
  inScope(db.selectFrom('exchanges as e'), scope, { branch: 'e.branch_id', exchange: 'e.id' })
    .select([
      'e.id',
      'e.name',
      'e.is_active',
      'e.address',
      'e.phone_number',
      'e.chat_url',
      'e.latitude',
      'e.longitude',
      'e.timezone',
    ])
    .select(publicSchedule(sql.ref('e.id')).as('schedule'))
    .orderBy('e.id'),
);

/** The exchanges in scope with their contacts, for partners. */
export function listPublicExchanges(db: Executor, scope: Scope) {
  return publicExchangesQuery(db, scopeValues(scope));
}

export function findPublicExchange(db: Executor, scope: Scope, id: number) {
  return inScope(db.selectFrom('exchanges as e'), scope, { branch: 'e.branch_id', exchange: 'e.id' })
    .select(['e.id', 'e.name', 'e.address', 'e.city', 'e.is_active', 'e.timezone', 'e.created_at', 'e.updated_at'])
    .select(publicSchedule(sql.ref('e.id')).as('schedule'))
    .where('e.id', '=', id)
    .executeTakeFirst();
}

/** An exchange a new order names as its cashbox, in the key's scope. Memoized: every order reads one. */
export async function findCashbox(db: Executor, scope: Scope, id: number) {
  const [row] = await cashboxQuery(db, { branchId: scope.branchId, exchangeIds: scope.exchangeIds, id });
  return row;
}

const cashboxQuery = memoQuery((db, p: ScopeValues & { id: number }) =>
  inScope(db.selectFrom('exchanges as e'), p, { branch: 'e.branch_id', exchange: 'e.id' })
    .innerJoin('branches as b', 'b.id', 'e.branch_id')
    .select(['e.id', 'e.branch_id', 'e.is_active', 'b.is_sandbox', 'e.payment_window_seconds'])
    .where('e.id', '=', p.id),
);

/** The ids among `ids` that are not exchanges of the branch. */
export async function exchangesOutsideBranch(
  db: Executor,
  branchId: number,
  ids: readonly number[],
): Promise<number[]> {
  if (ids.length === 0) return [];
  const found = await db
    .selectFrom('exchanges')
    .select('id')
    .where('branch_id', '=', branchId)
    .where('id', 'in', [...ids])
    .execute();
  const inBranch = new Set(found.map((r) => r.id));
  return ids.filter((id) => !inBranch.has(id));
}

export const EXCHANGE_COLUMNS: Record<string, string> = {
  id: 'e.id',
  branchId: 'e.branch_id',
  name: 'e.name',
  city: 'e.city',
  isActive: 'e.is_active',
  createdAt: 'e.created_at',
  updatedAt: 'e.updated_at',
};

function inBackOffice(db: Executor, scope: Scope) {
  return inScope(db.selectFrom('exchanges as e'), scope, { branch: 'e.branch_id' });
}

function selectExchangeColumns(q: ReturnType<typeof inBackOffice>) {
  return q
    .select([
      'e.id',
      'e.branch_id',
      'e.name',
      'e.address',
      'e.city',
      'e.phone_number',
      'e.chat_url',
      'e.latitude',
      'e.longitude',
      'e.timezone',
      'e.is_active',
      'e.payment_window_seconds',
      'e.created_at',
      'e.updated_at',
    ])
    .select(schedule.as('schedule'));
}

export type ExchangeRow = NonNullable<Awaited<ReturnType<typeof findExchange>>>;

/** An exchange with every field, for the back office. */
export function findExchange(db: Executor, scope: Scope, id: number) {
  return selectExchangeColumns(inBackOffice(db, scope)).where('e.id', '=', id).executeTakeFirst();
}

export async function exchangeInScope(db: Executor, scope: Scope, id: number, lock = false) {
  let q = inBackOffice(db, scope).select(['e.id', 'e.branch_id']).where('e.id', '=', id);
  if (lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

const exchangesPage = pageQuery((db, scope: Scope) => inBackOffice(db, scope), EXCHANGE_COLUMNS, selectExchangeColumns);

export function listExchanges(db: Executor, scope: Scope, params: ListParams) {
  return exchangesPage(db, scopeValues(scope), params);
}

export interface ExchangeValues {
  name?: string;
  address?: string;
  city?: string;
  phoneNumber?: string;
  chatUrl?: string;
  location?: { latitude: number; longitude: number } | null;
  timezone?: string;
  isActive?: boolean;
  paymentWindowSeconds?: number;
}

function columns(v: ExchangeValues) {
  return {
    ...(v.name !== undefined && { name: v.name }),
    ...(v.address !== undefined && { address: v.address }),
    ...(v.city !== undefined && { city: v.city }),
    ...(v.phoneNumber !== undefined && { phone_number: v.phoneNumber }),
    ...(v.chatUrl !== undefined && { chat_url: v.chatUrl }),
    ...(v.location !== undefined && {
      latitude: v.location?.latitude ?? null,
      longitude: v.location?.longitude ?? null,
    }),
    ...(v.timezone !== undefined && { timezone: v.timezone }),
    ...(v.isActive !== undefined && { is_active: v.isActive }),
    ...(v.paymentWindowSeconds !== undefined && { payment_window_seconds: v.paymentWindowSeconds }),
    updated_at: sql<Date>`now()`,
  };
}

export async function insertExchange(
  db: Executor,
  branchId: number,
  v: ExchangeValues & { name: string },
): Promise<number> {
  const row = await db
    .insertInto('exchanges')
    .values({ branch_id: branchId, ...columns(v), name: v.name })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateExchange(db: Executor, id: number, v: ExchangeValues): Promise<void> {
  await db.updateTable('exchanges').set(columns(v)).where('id', '=', id).execute();
}

export async function replaceSchedule(db: Executor, exchangeId: number, days: ScheduleDay[]): Promise<void> {
  await db.deleteFrom('exchange_schedule').where('exchange_id', '=', exchangeId).execute();
  if (days.length === 0) return;
  await db
    .insertInto('exchange_schedule')
    .values(
      days.map((d) => ({
        exchange_id: exchangeId,
        day_of_week: d.dayOfWeek,
        open_time: d.openTime,
        close_time: d.closeTime,
        is_closed: d.isClosed,
      })),
    )
    .execute();
}
