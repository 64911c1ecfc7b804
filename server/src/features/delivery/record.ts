import { sql } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import type { Outcome, RecordSettings, Recorded } from './outcome.js';

/**
 * Records a batch of finished attempts, any mix of successes and failures, in one transaction: each delivery
 * only if this worker still holds its lease for that attempt (a worker that lost its lease cannot clobber a
 * newer one), the attempt log, the webhooks' consecutive-failure counts, and the deactivation that abandons the
 * webhook's pending deliveries. A batch of successes only has a faster path (record-success.ts).
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
      if (deactivated.length > 0) out.abandoned = await abandonPending(tx, deactivated, 'webhook deactivated after consecutive failures');
    }
    return out;
  });
}

/** Per webhook, in the order the attempts finished: whether a success reset the count, and the failures since. */
function failureCounts(outcomes: Outcome[]): { webhookId: string; reset: boolean; n: number }[] {
  const by = new Map<string, { webhookId: string; reset: boolean; n: number }>();
  for (const o of outcomes) {
    const c = by.get(o.webhookId) ?? { webhookId: o.webhookId, reset: false, n: 0 };
    if (o.ok) { c.reset = true; c.n = 0; } else c.n += 1;
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
