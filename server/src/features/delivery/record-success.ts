import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Outcome, Recorded } from './outcome.js';

/**
 * The hot path of recording, when every attempt of the batch succeeded: one statement instead of record.ts's
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
