import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { pageQuery, type ListParams } from '../../db/list.js';
import { inScope, scopeValues, updateInScope, type Scope } from '../../db/scope.js';
import type { RateSourceKind } from './schemas.js';

// Rate sources: the back office's reads and writes, and the poller's lease, results and staleness.

export const RATE_SOURCE_COLUMNS: Record<string, string> = {
  id: 's.id',
  branchId: 's.branch_id',
  name: 's.name',
  kind: 's.kind',
  lastSuccessAt: 's.last_success_at',
  createdAt: 's.created_at',
  updatedAt: 's.updated_at',
};

function inBackOffice(db: Executor, scope: Scope) {
  return inScope(db.selectFrom('rate_sources as s'), scope, { branch: 's.branch_id' });
}

function selectSourceColumns(q: ReturnType<typeof inBackOffice>) {
  return q.select([
    's.id',
    's.branch_id',
    's.name',
    's.kind',
    's.url',
    's.interval_seconds',
    's.max_age_seconds',
    's.next_poll_at',
    's.last_success_at',
    's.last_error',
    's.last_error_at',
    's.last_quotes',
    's.created_at',
    's.updated_at',
    sql<boolean>`coalesce(s.last_success_at, s.created_at) < now() - s.max_age_seconds * interval '1 second'`.as(
      'is_stale',
    ),
    // offers_rate_source_idx answers it: one index range per source.
    sql<number>`(select count(*)::int from offers o where o.rate_source_id = s.id)`.as('offers'),
  ]);
}

export type RateSourceRow = NonNullable<Awaited<ReturnType<typeof findSource>>>;

export function findSource(db: Executor, scope: Scope, id: number) {
  return selectSourceColumns(inBackOffice(db, scope)).where('s.id', '=', id).executeTakeFirst();
}

const sourcesPage = pageQuery((db, scope: Scope) => inBackOffice(db, scope), RATE_SOURCE_COLUMNS, selectSourceColumns, {
  nullable: ['lastSuccessAt'],
});

export function listSources(db: Executor, scope: Scope, params: ListParams) {
  return sourcesPage(db, scopeValues(scope), params);
}

/** The source in scope, locked for a change or a delete; undefined when it is not there for this caller. */
export function lockSource(db: Executor, scope: Scope, id: number) {
  return inBackOffice(db, scope).select(['s.id', 's.branch_id']).where('s.id', '=', id).forUpdate().executeTakeFirst();
}

export interface SourceValues {
  name?: string;
  kind?: RateSourceKind;
  url?: string;
  intervalSeconds?: number;
  maxAgeSeconds?: number;
}

function columns(v: SourceValues) {
  return {
    ...(v.name !== undefined && { name: v.name }),
    ...(v.kind !== undefined && { kind: v.kind }),
    ...(v.url !== undefined && { url: v.url }),
    ...(v.intervalSeconds !== undefined && { interval_seconds: v.intervalSeconds }),
    ...(v.maxAgeSeconds !== undefined && { max_age_seconds: v.maxAgeSeconds }),
    updated_at: sql<Date>`now()`,
  };
}

export async function insertSource(
  db: Executor,
  branchId: number,
  v: SourceValues & { name: string; kind: RateSourceKind; url: string },
): Promise<number> {
  const row = await db
    .insertInto('rate_sources')
    .values({ branch_id: branchId, ...columns(v), name: v.name, kind: v.kind, url: v.url })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A change of what is read, or how often, is read at the next tick rather than after the old interval. */
export async function updateSource(db: Executor, scope: Scope, id: number, v: SourceValues): Promise<void> {
  const rereads = v.kind !== undefined || v.url !== undefined || v.intervalSeconds !== undefined;
  await updateInScope(db.updateTable('rate_sources as s'), scope, { branch: 's.branch_id' })
    .set({ ...columns(v), ...(rereads && { next_poll_at: sql<Date>`now()` }) })
    .where('s.id', '=', id)
    .execute();
}

export async function deleteSource(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('rate_sources').where('id', '=', id).execute();
}

export async function countOffersOf(db: Executor, id: number): Promise<number> {
  const row = await db
    .selectFrom('offers')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('rate_source_id', '=', id)
    .executeTakeFirstOrThrow();
  return row.n;
}

export interface ClaimedSource {
  id: number;
  kind: RateSourceKind;
  url: string;
}

/**
 * The poll lease: the due sources, each moved to its next poll in the same statement that picks it, so another
 * instance's claim skips it (a row locked by a concurrent claim is skipped, not waited for) and then finds it
 * no longer due. The next poll is counted from the previous due time when that keeps it ahead of now, so the
 * reads of a source keep their rhythm instead of drifting by the length of each tick; after a pause it restarts.
 */
export async function claimDue(db: Executor, limit: number): Promise<ClaimedSource[]> {
  const { rows } = await sql<ClaimedSource>`
    update rate_sources s
    set next_poll_at = greatest(
      s.next_poll_at + s.interval_seconds * interval '1 second',
      now() + (s.interval_seconds * interval '1 second') / 2
    )
    where s.id in (
      select id from rate_sources where next_poll_at <= now() order by next_poll_at limit ${limit} for update skip locked
    )
    returning s.id, s.kind, s.url`.execute(db);
  return rows;
}

export async function recordSuccess(db: Executor, id: number, quotes: Record<string, string>, readAt: Date) {
  await db
    .updateTable('rate_sources')
    .set({
      last_success_at: readAt,
      last_quotes: sql<Record<string, string>>`${JSON.stringify(quotes)}::jsonb`,
      last_error: null,
    })
    .where('id', '=', id)
    .execute();
}

export async function recordFailure(db: Executor, id: number, error: string, at: Date) {
  await db.updateTable('rate_sources').set({ last_error: error, last_error_at: at }).where('id', '=', id).execute();
}

/** Sources without a successful read for their maxAgeSeconds (since their creation when there has been none). */
export async function staleSources(db: Executor): Promise<number[]> {
  const rows = await db
    .selectFrom('rate_sources')
    .select('id')
    .where(sql<boolean>`coalesce(last_success_at, created_at) < now() - max_age_seconds * interval '1 second'`)
    .execute();
  return rows.map((r) => r.id);
}

/** Each source's seconds since its last successful read (null: never), for the metrics. */
export function sourceAges(db: Executor) {
  return db
    .selectFrom('rate_sources')
    .select(['id', sql<number | null>`extract(epoch from now() - last_success_at)::float8`.as('age_seconds')])
    .execute();
}
