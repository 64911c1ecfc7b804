import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Metrics } from '../../http/metrics.js';

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
export async function sweep(db: Database, maxAttempts: number): Promise<{ released: number; abandoned: number; failed: number }> {
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
        select seq from events where created_at < now() - make_interval(days => ${days}) order by created_at limit ${batch})`.execute(db);
    const n = Number(result.numAffectedRows ?? 0);
    pruned += n;
    if (n < batch) break;
  }
  return pruned;
}

export async function queueDepth(db: Database): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from webhook_deliveries where status = 'pending'`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * One sweep with its metrics (abandoned, failed and pruned deliveries, queue depth); returns how many became due
 * again.
 */
export async function sweepAndMeasure(db: Database, metrics: Metrics, maxAttempts: number, retentionDays: number): Promise<number> {
  const r = await sweep(db, maxAttempts);
  if (r.abandoned) metrics.webhookDeliveries.inc({ outcome: 'abandoned' }, r.abandoned);
  if (r.failed) metrics.webhookDeliveries.inc({ outcome: 'failed' }, r.failed);
  const pruned = await pruneDeliveries(db, retentionDays);
  if (pruned) metrics.webhookDeliveriesPruned.inc(pruned);
  await pruneEvents(db, retentionDays);
  metrics.webhookQueueDepth.set(await queueDepth(db));
  return r.released;
}
