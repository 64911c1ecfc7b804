import { sql } from 'kysely';
import type { Database } from '../../db/database.js';

/** A claimed attempt: the delivery, its attempt number, and the webhook's URL and secrets as they are now. */
export interface Claim {
  id: string;
  webhookId: string;
  event: string;
  body: string;
  attempt: number;
  dueAt: Date;
  url: string;
  secret: string;
  /** The secret a rotation replaced, while its overlap lasts: the attempt is signed with both. */
  previousSecret: string | null;
}

export interface ClaimRequest {
  workerId: string; limit: number; leaseMs: number; perWebhook: number;
  /** This worker's attempts in flight, by webhook. */
  inFlight: ReadonlyMap<string, number>;
}

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
