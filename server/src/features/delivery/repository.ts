import { sql } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import { pageQuery, type Condition, type ListParams } from '../../db/list.js';
import type { Claim, ClaimRequest } from './claim.js';
import type { Outcome, RecordSettings, Recorded } from './outcome.js';

export const DELIVERY_COLUMNS: Record<string, string> = {
  id: 'd.id',
  status: 'd.status',
  event: 'd.event',
  attempts: 'd.attempts',
  createdAt: 'd.created_at',
  updatedAt: 'd.updated_at',
};

const deliveryColumns = [
  'd.id',
  'd.event',
  'd.status',
  'd.attempts',
  'd.last_response_status',
  'd.last_error',
  'd.next_attempt_at',
  'd.delivered_at',
  'd.created_at',
  'd.updated_at',
] as const;
/** The order or offer the event is about (`data.id` of the body as sent), so a log's rows can be told apart. */
const subjectId = sql<number | null>`substring(d.body::jsonb #>> '{data,id}' from '^[0-9]{1,9}$')::int`.as(
  'subject_id',
);

/**
 * The log's exact count unfiltered or filtered on status and event, from the counters migration 016's triggers keep
 * per (webhook, status, event); a window's from the days
 * inside it and the rows of its edge days.
 */
const COUNTED: Record<string, string> = { status: 'status', event: 'event' };
function exactTotal(p: { webhookId: string }, conditions: readonly Condition[]) {
  if (!conditions.every((c) => c.op === 'eq' && Object.hasOwn(COUNTED, c.field))) return null;
  const parts = [
    sql<boolean>`webhook_id = ${p.webhookId}`,
    ...conditions.map((c) => sql<boolean>`${sql.ref(COUNTED[c.field]!)} = ${c.value}`),
  ];
  return sql<number>`(select coalesce(sum(n), 0)::int from webhook_delivery_counts where ${sql.join(parts, sql` and `)})`;
}

// The webhook's visibility to the caller is checked by the registry before its log is read.
const deliveriesPage = pageQuery(
  (db, p: { webhookId: string }) => db.selectFrom('webhook_deliveries as d').where('d.webhook_id', '=', p.webhookId),
  DELIVERY_COLUMNS,
  (qb) => qb.select(deliveryColumns).select(subjectId),
  {
    planEachTime: true,
    exactTotal,
    dayCounts: (p) => ({ table: 'webhook_delivery_days', where: sql<boolean>`webhook_id = ${p.webhookId}` }),
  },
);

export function listDeliveries(db: Executor, webhookId: string, params: ListParams) {
  return deliveriesPage(db, { webhookId }, params);
}

export function findDelivery(db: Executor, webhookId: string, deliveryId: string) {
  return db
    .selectFrom('webhook_deliveries as d')
    .select(deliveryColumns)
    .select(subjectId)
    .select('d.body')
    .where('d.webhook_id', '=', webhookId)
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
}

export function listAttempts(db: Executor, deliveryId: string) {
  return db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('id').execute();
}

/**
 * Makes a delivery due now, whatever its status, for one more attempt (and the remaining retries, if any).
 * An attempt already in flight is left alone. Only while its webhook is active.
 */
export function requeueDelivery(db: Executor, webhookId: string, deliveryId: string) {
  return db
    .updateTable('webhook_deliveries as d')
    .from('webhooks as w')
    .set({ status: 'pending', next_attempt_at: sql`now()`, updated_at: sql`now()`, delivered_at: null })
    .whereRef('w.id', '=', 'd.webhook_id')
    .where('w.is_active', '=', true)
    .where('d.webhook_id', '=', webhookId)
    .where('d.id', '=', deliveryId)
    .where('d.lease_expires_at', 'is', null)
    .returning(deliveryColumns)
    .returning(subjectId)
    .executeTakeFirst();
}

/** Deletes every delivery of these webhooks, with its attempts (on delete cascade). */
export async function deleteDeliveries(tx: Executor, webhookIds: string[]): Promise<void> {
  await tx.deleteFrom('webhook_deliveries').where('webhook_id', 'in', webhookIds).execute();
}

// The worker's statements: claiming due deliveries, recording outcomes, sweeping and pruning.

/**
 * Claims due deliveries of active webhooks with a lease, in one short statement: rows another worker is
 * claiming are skipped, not waited for, and no transaction stays open during the HTTP call. A webhook gets at
 * most `perWebhook` less what this worker already has in flight to it, so a slow receiver cannot take every slot.
 */
export async function claimDue(db: Database, r: ClaimRequest): Promise<Claim[]> {
  const busy = [...r.inFlight].filter(([, n]) => n > 0);
  const full = busy.filter(([, n]) => n >= r.perWebhook).map(([id]) => id);
  const { rows } = await sql<Claim>`
    update webhook_deliveries d
    set lease_expires_at = now() + ${r.leaseMs}::int * interval '1 millisecond', leased_by = ${r.workerId},
        attempts = d.attempts + 1, updated_at = now()
    from webhooks w
    where w.id = d.webhook_id and d.id in (
      select ranked.id from (
        select due.id, due.webhook_id, due.next_attempt_at, row_number() over (partition by due.webhook_id order by due.next_attempt_at) as rn
        from (
          select q.id, q.webhook_id, q.next_attempt_at
          from webhook_deliveries q
          join webhooks qw on qw.id = q.webhook_id and qw.is_active
          where q.status = 'pending' and q.next_attempt_at <= now() and q.lease_expires_at is null
            and q.webhook_id <> all(${full}::uuid[])
          order by q.next_attempt_at
          limit ${r.limit * 4}
          for update of q skip locked
        ) due
      ) ranked
      left join unnest(${busy.map(([id]) => id)}::uuid[], ${busy.map(([, n]) => n)}::int[]) as held(webhook_id, n) on held.webhook_id = ranked.webhook_id
      where ranked.rn <= ${r.perWebhook} - coalesce(held.n, 0)
      order by ranked.next_attempt_at
      limit ${r.limit}
    )
    returning d.id, d.webhook_id as "webhookId", d.event, d.body, d.attempts as attempt, d.next_attempt_at as "dueAt",
      w.url, w.secret_key as secret,
      case when w.previous_secret_expires_at > now() then w.previous_secret_key end as "previousSecret"`.execute(db);
  return rows.map((row) => ({ ...row, dueAt: new Date(row.dueAt) }));
}

/**
 * The hot path of recording, when every attempt of the batch succeeded: one statement instead of recordOutcomes's
 * transaction of four, with the same rules (only deliveries this worker still leases; every attempt logged;
 * failCount back to 0). If a webhook is deleted meanwhile, its attempt rows fail the foreign key and the
 * caller retries the batch, which then leaves them out.
 */
export async function recordSuccesses(db: Database, outcomes: Outcome[], workerId: string): Promise<Recorded> {
  const col = <K extends keyof Outcome>(k: K) => outcomes.map((o) => o[k]);
  const { rows } = await sql<{ n: number }>`
    with v as (
      select * from unnest(${col('id')}::uuid[], ${col('attempt')}::int[], ${col('status')}::int[],
        ${col('startedAt').map((d) => d.toISOString())}::timestamptz[], ${col('durationMs')}::int[], ${col('body')}::text[])
        as v(id, attempt, status, started_at, duration_ms, body)
    ), done as (
      update webhook_deliveries d
      set status = 'succeeded', delivered_at = now(), updated_at = now(), last_response_status = v.status,
          last_error = null, lease_expires_at = null, leased_by = null
      from v
      where d.id = v.id and d.attempts = v.attempt and d.leased_by = ${workerId} and d.status = 'pending'
      returning d.id, d.webhook_id
    ), logged as (
      insert into webhook_attempts (delivery_id, attempt_number, started_at, duration_ms, response_status, response_body)
      select v.id, v.attempt, v.started_at, v.duration_ms, v.status, v.body
      from v join webhook_deliveries d on d.id = v.id
    ), reset as (
      update webhooks w set fail_count = 0, updated_at = now()
      where w.id in (select webhook_id from done) and w.fail_count > 0
    )
    select count(*)::int as n from done`.execute(db);
  return { succeeded: Number(rows[0]?.n ?? 0), retried: 0, failed: 0, abandoned: 0, nextDue: null };
}

/**
 * Records a batch of finished attempts, any mix of successes and failures, in one transaction: each delivery
 * only if this worker still holds its lease for that attempt (a worker that lost its lease cannot clobber a
 * newer one), the attempt log, the webhooks' consecutive-failure counts, and the deactivation that abandons the
 * webhook's pending deliveries. A batch of successes only has a faster path (recordSuccesses).
 */
export function recordOutcomes(db: Database, outcomes: Outcome[], s: RecordSettings): Promise<Recorded> {
  return db.transaction().execute(async (tx) => {
    const ok = outcomes.filter((o) => o.ok);
    const bad = outcomes.filter((o) => !o.ok);
    const col = <K extends keyof Outcome>(list: Outcome[], k: K) => list.map((o) => o[k]);
    const out: Recorded = { succeeded: 0, retried: 0, failed: 0, abandoned: 0, nextDue: null };
    const recorded = new Set<string>();

    if (ok.length > 0) {
      const { rows } = await sql<{ id: string }>`
        update webhook_deliveries d
        set status = 'succeeded', delivered_at = now(), updated_at = now(), last_response_status = v.status,
            last_error = null, lease_expires_at = null, leased_by = null
        from unnest(${col(ok, 'id')}::uuid[], ${col(ok, 'attempt')}::int[], ${col(ok, 'status')}::int[]) as v(id, attempt, status)
        where d.id = v.id and d.attempts = v.attempt and d.leased_by = ${s.workerId} and d.status = 'pending'
        returning d.id`.execute(tx);
      for (const r of rows) recorded.add(r.id);
      out.succeeded = rows.length;
    }
    if (bad.length > 0) {
      const { rows } = await sql<{ id: string; status: string; next_attempt_at: Date }>`
        update webhook_deliveries d
        set status = case when v.attempt >= ${s.maxAttempts} then 'failed' else 'pending' end,
            next_attempt_at = case when v.attempt >= ${s.maxAttempts} then d.next_attempt_at
              else now() + (${s.retryBaseMs}::bigint << (v.attempt - 1)) * interval '1 millisecond' end,
            last_response_status = v.status, last_error = coalesce(v.error, 'HTTP ' || v.status),
            lease_expires_at = null, leased_by = null, updated_at = now()
        from unnest(${col(bad, 'id')}::uuid[], ${col(bad, 'attempt')}::int[], ${col(bad, 'status')}::int[], ${col(bad, 'error')}::text[])
          as v(id, attempt, status, error)
        where d.id = v.id and d.attempts = v.attempt and d.leased_by = ${s.workerId} and d.status = 'pending'
        returning d.id, d.status, d.next_attempt_at`.execute(tx);
      for (const r of rows) {
        recorded.add(r.id);
        if (r.status === 'failed') out.failed += 1;
        else {
          out.retried += 1;
          const due = new Date(r.next_attempt_at);
          if (!out.nextDue || due < out.nextDue) out.nextDue = due;
        }
      }
    }

    // Every attempt made is logged, even one whose lease was lost, as long as its delivery still exists.
    await sql`
      insert into webhook_attempts (delivery_id, attempt_number, started_at, duration_ms, response_status, response_body, error)
      select v.id, v.attempt, v.started_at, v.duration_ms, v.status, v.body, v.error
      from unnest(${col(outcomes, 'id')}::uuid[], ${col(outcomes, 'attempt')}::int[], ${col(outcomes, 'startedAt').map((d) => d.toISOString())}::timestamptz[],
        ${col(outcomes, 'durationMs')}::int[], ${col(outcomes, 'status')}::int[], ${col(outcomes, 'body')}::text[], ${col(outcomes, 'error')}::text[])
        as v(id, attempt, started_at, duration_ms, status, body, error)
      join webhook_deliveries d on d.id = v.id
      for key share of d`.execute(tx);

    const counts = failureCounts(outcomes.filter((o) => recorded.has(o.id)));
    if (counts.length > 0) {
      const { rows } = await sql<{ id: string; is_active: boolean }>`
        update webhooks w
        set fail_count = case when v.reset then v.n else w.fail_count + v.n end,
            is_active = w.is_active and (case when v.reset then v.n else w.fail_count + v.n end) < ${s.deactivateAfter},
            deactivated_at = case when w.is_active and (case when v.reset then v.n else w.fail_count + v.n end) >= ${s.deactivateAfter}
              then now() else w.deactivated_at end,
            updated_at = now()
        from unnest(${counts.map((c) => c.webhookId)}::uuid[], ${counts.map((c) => c.reset)}::boolean[], ${counts.map((c) => c.n)}::int[]) as v(id, reset, n)
        where w.id = v.id and (v.n > 0 or w.fail_count > 0)
        returning w.id, w.is_active`.execute(tx);
      const deactivated = rows.filter((r) => !r.is_active).map((r) => r.id);
      if (deactivated.length > 0)
        out.abandoned = await abandonPending(tx, deactivated, 'webhook deactivated after consecutive failures');
    }
    return out;
  });
}

/** Per webhook, in the order the attempts finished: whether a success reset the count, and the failures since. */
function failureCounts(outcomes: Outcome[]): { webhookId: string; reset: boolean; n: number }[] {
  const by = new Map<string, { webhookId: string; reset: boolean; n: number }>();
  for (const o of outcomes) {
    const c = by.get(o.webhookId) ?? { webhookId: o.webhookId, reset: false, n: 0 };
    if (o.ok) {
      c.reset = true;
      c.n = 0;
    } else c.n += 1;
    by.set(o.webhookId, c);
  }
  return [...by.values()];
}

/** Pending deliveries of webhooks that no longer take deliveries are abandoned, not sent. */
export async function abandonPending(db: Executor, webhookIds: string[], reason: string): Promise<number> {
  const result = await sql`
    update webhook_deliveries
    set status = 'abandoned', lease_expires_at = null, leased_by = null, last_error = ${reason}, updated_at = now()
    where webhook_id = any(${webhookIds}::uuid[]) and status = 'pending'`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

export const LEASE_LOST = 'no outcome recorded: the worker making this attempt stopped or stalled past its lease';

/**
 * Makes orphaned claims claimable again: an attempt whose lease ran out (its worker crashed or stalled) is
 * logged as failed and made due at once, without counting against the webhook, since the fault was ours.
 * Nobody knows how such an attempt ended: the receiver may have answered 2xx to a worker that could not record
 * it (a database cut longer than the lease). So losing the lease of the last attempt earns one more attempt
 * instead of failing the delivery; only a lease lost past the last attempt fails it, so a delivery that stalls
 * every worker still ends. Also abandons pending deliveries of inactive webhooks that slipped in beside a
 * deactivation. Returns what it did, for the metrics.
 */
export async function sweep(
  db: Database,
  maxAttempts: number,
): Promise<{ released: number; abandoned: number; failed: number }> {
  const { rows } = await sql<{ status: string }>`
    with expired as (
      select id, lease_expires_at, leased_by, updated_at as claimed_at from webhook_deliveries
      where status = 'pending' and lease_expires_at < now()
      order by lease_expires_at
      limit 500
      for update skip locked
    ), released as (
      update webhook_deliveries d
      set status = case when d.attempts > ${maxAttempts} then 'failed' else 'pending' end,
          next_attempt_at = now(), lease_expires_at = null, leased_by = null, last_response_status = null,
          last_error = ${LEASE_LOST}, updated_at = now()
      from expired e
      where d.id = e.id
      returning d.id, d.attempts, d.status, e.lease_expires_at, e.leased_by, e.claimed_at
    ), logged as (
      insert into webhook_attempts (delivery_id, attempt_number, started_at, duration_ms, error)
      select id, attempts, claimed_at, (extract(epoch from lease_expires_at - claimed_at) * 1000)::int, ${LEASE_LOST} || ' (' || coalesce(leased_by, '?') || ')' from released
    )
    select status from released`.execute(db);
  const abandoned = await sql`
    update webhook_deliveries d
    set status = 'abandoned', last_error = 'webhook inactive', updated_at = now()
    from webhooks w
    where w.id = d.webhook_id and not w.is_active and d.status = 'pending' and d.lease_expires_at is null`.execute(db);
  return {
    released: rows.filter((r) => r.status === 'pending').length,
    failed: rows.filter((r) => r.status === 'failed').length,
    abandoned: Number(abandoned.numAffectedRows ?? 0),
  };
}

/**
 * Deletes finished deliveries (succeeded, failed, abandoned) last changed more than `days` ago, with their
 * attempts. Each statement deletes at most `batch`, so that none holds many row locks; full batches repeat, up
 * to `maxBatches` a sweep, so that pruning keeps up with up to 20,000 finished deliveries per sweep (4,000/s at
 * the default lease) instead of falling behind a busy hour. Pending ones stay.
 */
export async function pruneDeliveries(db: Database, days: number, batch = 1000, maxBatches = 20): Promise<number> {
  let pruned = 0;
  for (let i = 0; i < maxBatches; i++) {
    const result = await sql`
      delete from webhook_deliveries where id in (
        select id from webhook_deliveries
        where status <> 'pending' and updated_at < now() - make_interval(days => ${days})
        order by updated_at
        limit ${batch}
        for update skip locked)`.execute(db);
    const n = Number(result.numAffectedRows ?? 0);
    pruned += n;
    if (n < batch) break;
  }
  return pruned;
}

/**
 * Deletes events-feed rows (features/events) older than `days`: the feed keeps events as long as deliveries are
 * kept. Batched as pruneDeliveries is.
 */
export async function pruneEvents(db: Database, days: number, batch = 1000, maxBatches = 20): Promise<number> {
  let pruned = 0;
  for (let i = 0; i < maxBatches; i++) {
    const result = await sql`
      delete from events where seq in (
        select seq from events where created_at < now() - make_interval(days => ${days}) order by created_at limit ${batch})`.execute(
      db,
    );
    const n = Number(result.numAffectedRows ?? 0);
    pruned += n;
    if (n < batch) break;
  }
  return pruned;
}

export async function queueDepth(db: Database): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`select count(*)::int as n from webhook_deliveries where status = 'pending'`.execute(db);
  return Number(rows[0]?.n ?? 0);
}
