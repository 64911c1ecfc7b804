import { sql } from 'kysely';
import { hashPassword } from '../../src/auth/password.js';
import type { Database } from '../../src/db/database.js';
import { issueApiKey } from '../../src/features/api-keys/issue.js';

/** The retention age the seeded deliveries spread over (days 1…28, inside the default 30), and the pruning pass's cut. */
export const SPREAD_DAYS = 28;
export const PRUNE_DAYS = 27;
export const STAFF_PASSWORD = 'bench-password-1';

export interface ScaleBranch {
  branchId: number;
  key: string;
  staffEmail: string;
  webhookIds: string[];
}

const STATUSES = `array['ORDERINIT', 'CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'CASHOUT', 'SUCCESS', 'CANCEL']`;
const CHUNK = 1_000_000;
/**
 * Statements loading at once, each on a connection of its own: one statement runs in one backend, on one core.
 * Two gave 1.48 times the rows per second of one on this 2-vCPU machine (4,000,000 deliveries in 36.7 s against
 * 54.2 s); two that interleave their ids instead of taking a range each fought over the primary key's last page
 * and gained nothing.
 */
const LOADERS = 2;

/** `count` ids from `first` as ranges of at most CHUNK, at least one per loader, loaded LOADERS at a time. */
async function inRanges(
  first: number,
  count: number,
  load: (from: number, to: number) => Promise<unknown>,
): Promise<void> {
  const size = Math.min(CHUNK, Math.ceil(count / LOADERS));
  const ranges: [number, number][] = [];
  for (let from = first; from < first + count; from += size)
    ranges.push([from, Math.min(first + count - 1, from + size - 1)]);
  const next = async (): Promise<void> => {
    const range = ranges.shift();
    if (!range) return;
    await load(...range);
    return next();
  };
  // Every loader settles before the caller goes on: its `finally` builds indexes, which must not meet an insert.
  const outcomes = await Promise.allSettled(Array.from({ length: LOADERS }, next));
  const failed = outcomes.find((o) => o.status === 'rejected');
  if (failed) throw failed.reason;
}

/** A branch with a branch key, an admin and `webhooks` webhooks (to an address never called: their deliveries are all finished). */
export async function scaleBranch(db: Database, name: string, webhooks: number): Promise<ScaleBranch> {
  const now = new Date();
  const branch = await db.insertInto('branches').values({ name }).returning('id').executeTakeFirstOrThrow();
  const staffEmail = `admin-${branch.id}@bench.local`;
  const staff = await db
    .insertInto('staff_users')
    .values({
      email: staffEmail,
      password_hash: await hashPassword(STAFF_PASSWORD),
      role: 'admin',
      branch_id: branch.id,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const key = await issueApiKey(db, {
    name: `${name} key`,
    type: 'branch',
    staffUserId: staff.id,
    branchId: branch.id,
  });
  const hooks = await db
    .insertInto('webhooks')
    .values(
      Array.from({ length: webhooks }, (_, i) => ({
        branch_id: branch.id,
        url: `https://partner.example/hook/${i}`,
        events: ['order.created'],
        secret_key: 's'.repeat(64),
        updated_at: now,
      })),
    )
    .returning('id')
    .execute();
  return { branchId: branch.id, key: key.rawKey, staffEmail, webhookIds: hooks.map((h) => h.id) };
}

/**
 * `count` orders of the branch (financial operations: no offer needed), over its first four exchanges, six statuses
 * and two years, in statements of up to a million rows (LOADERS at once): the counter triggers (migration 005) see each
 * statement's rows as one transition table, and upsert the counters in key order, so loaders sharing them cannot deadlock.
 */
export async function seedOrders(
  pool: Database,
  branchId: number,
  exchangeIds: number[],
  currencies: [number, number],
  count: number,
): Promise<void> {
  const ex = sql.raw(`array[${exchangeIds.slice(0, 4).join(',')}]`);
  await bulkLoad(pool, ['orders'], ['orders_user_idx'], () =>
    inRanges(1, count, (from, to) =>
      sql`
        insert into orders (hashed_id, branch_id, cashbox_id, currency1_id, currency2_id, client_amount, exchange_amount, status,
          operation_type, comment, created_at, updated_at)
        select 'scale-' || ${branchId}::int || '-' || g, ${branchId}::int, (${ex})[1 + g % ${exchangeIds.slice(0, 4).length}::int],
          ${currencies[0]}::int, ${currencies[1]}::int, 1 + (g::bigint * 7919) % 100000, 1 + (g::bigint * 104729) % 90000,
          (${sql.raw(STATUSES)})[1 + g % 6], 'finop', 'scale',
          timestamptz '2024-01-01' + g * interval '1 minute', timestamptz '2024-01-01' + g * interval '1 minute' + (g % 13) * interval '1 hour'
        from generate_series(${from}::int, ${to}::int) g`.execute(pool),
    ),
  );
}

/**
 * The turnover aggregates of the branch's SUCCESS orders (docs/reports.md), made by the rule the settling move uses
 * (migration 021's turnover_add), in one set-based call: the seeded orders settled when they were last changed, by no
 * staff user.
 */
export async function seedTurnover(db: Database, branchId: number): Promise<void> {
  await sql`
    select turnover_add(1, array_agg(id), array_agg(updated_at), array_agg(null::int))
    from orders where branch_id = ${branchId}::int and status = 'SUCCESS'`.execute(db);
}

/**
 * Runs a bulk insert into `tables` (`load`, on connections of the pool) without what makes it slow row by row: the secondary indexes
 * are dropped and built again afterwards from their own definitions (one sorted build instead of millions of
 * random inserts; the builds use the default parallel workers; `keep` are partial indexes the seeded rows never
 * enter, which would cost a table scan to build and nothing to keep), and the foreign-key checks are off during
 * the load (the seed's references are the rows it just made). The primary keys stay: each loader's inserts land at the
 * right edge of its own range and cost about what a rebuild would. The counter triggers stay on: the counts are kept by the same
 * statements as in production.
 */
async function bulkLoad(pool: Database, tables: string[], keep: string[], load: () => Promise<void>): Promise<void> {
  await pool.connection().execute(async (db) => {
    await sql`set maintenance_work_mem = '512MB'`.execute(db);
    const { rows: indexes } = await sql<{ name: string; def: string }>`
      select i.indexname as name, i.indexdef as def from pg_indexes i
      where i.tablename = any(${tables}) and i.indexname <> all(${keep})
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`.execute(db);
    const { rows: checks } = await sql<{ table: string; name: string }>`
      select tgrelid::regclass::text as table, tgname as name from pg_trigger
      where tgrelid = any(${tables}::regclass[]) and tgisinternal and tgfoid = '"RI_FKey_check_ins"'::regproc`.execute(
      db,
    );
    for (const i of indexes) await sql`drop index ${sql.id(i.name)}`.execute(db);
    for (const c of checks) await sql`alter table ${sql.table(c.table)} disable trigger ${sql.id(c.name)}`.execute(db);
    try {
      await load();
    } finally {
      for (const c of checks) await sql`alter table ${sql.table(c.table)} enable trigger ${sql.id(c.name)}`.execute(db);
      for (const i of indexes) await sql.raw(i.def).execute(db);
      await sql`reset maintenance_work_mem`.execute(db);
    }
  });
}

/**
 * `count` succeeded deliveries over the webhooks, last changed 1…SPREAD_DAYS days ago; ids are v4-shaped but
 * ascending, so that the primary key grows at its right edge. Each delivery the pruning pass may delete (last
 * changed PRUNE_DAYS or more days ago) gets one attempt, in the same statement, so that the cascade has rows to
 * delete too and the deliveries are not read back. Returns the number of attempts.
 */
export async function seedDeliveries(
  pool: Database,
  webhookIds: string[],
  count: number,
  firstId = 1,
): Promise<number> {
  const hooks = sql.raw(`array[${webhookIds.map((id) => `'${id}'::uuid`).join(',')}]`);
  let attempts = 0;
  await bulkLoad(pool, ['webhook_deliveries', 'webhook_attempts'], ['webhook_deliveries_due_idx'], () =>
    inRanges(firstId, count, async (from, to) => {
      const r = await sql`
        with delivery as (
          insert into webhook_deliveries (id, webhook_id, event, body, status, attempts, next_attempt_at, last_response_status,
            created_at, updated_at, delivered_at)
          select ('00000000-0000-4000-8000-' || lpad(to_hex(g), 12, '0'))::uuid, (${hooks})[1 + g % ${webhookIds.length}::int], 'order.created',
            '{"event":"order.created","data":{"id":' || g || ',"status":"ORDERINIT","amountSource":"100","amountDest":"92.15"}}',
            'succeeded', 1, at.t, 200, at.t, at.t, at.t
          from generate_series(${from}::int, ${to}::int) g,
            lateral (select now() - make_interval(days => 1 + g % ${SPREAD_DAYS}::int, secs => g % 86400) as t) at
          returning id, updated_at)
        insert into webhook_attempts (delivery_id, attempt_number, started_at, duration_ms, response_status)
        select id, 1, updated_at, 12, 200 from delivery where updated_at <= now() - make_interval(days => ${PRUNE_DAYS})`.execute(
        pool,
      );
      attempts += Number(r.numAffectedRows ?? 0);
    }),
  );
  return attempts;
}

/** The counters the triggers keep (migrations 005, 015, 016): each table, its key, and the key's expressions over the rows. */
const COUNTERS: [counter: string, rows: string, key: string[], of: string[]][] = [
  [
    'order_counts',
    'orders',
    ['branch_id', 'cashbox_id', 'status', 'operation_type'],
    ['branch_id', 'cashbox_id', 'status', 'operation_type'],
  ],
  ['order_days', 'orders', ['branch_id', 'day'], ['branch_id', "(created_at at time zone 'UTC')::date"]],
  [
    'webhook_delivery_counts',
    'webhook_deliveries',
    ['webhook_id', 'status', 'event'],
    ['webhook_id', 'status', 'event'],
  ],
  [
    'webhook_delivery_days',
    'webhook_deliveries',
    ['webhook_id', 'day'],
    ['webhook_id', "(created_at at time zone 'UTC')::date"],
  ],
  ['client_counts', 'clients', ['branch_id'], ['branch_id']],
  [
    'audit_counts',
    'audit_log',
    ['branch_key', 'actor', 'action', 'entity_type'],
    ['coalesce(branch_id, 0)', 'actor', 'action', 'entity_type'],
  ],
  [
    'audit_days',
    'audit_log',
    ['branch_key', 'day'],
    ['coalesce(branch_id, 0)', "(created_at at time zone 'UTC')::date"],
  ],
];

/** Whether every counter the triggers kept agrees with count(*) of its rows, group by group (a group may span rows). */
export async function countersAgree(db: Database): Promise<boolean> {
  for (const [counter, rows, key, of] of COUNTERS) {
    const groups = key.map((_, i) => i + 1).join(', ');
    const { rows: bad } = await sql<{ bad: number }>`
      select count(*)::int as bad from (select ${sql.raw(of.map((e, i) => `${e} as ${key[i]}`).join(', '))}, count(*) as n from ${sql.table(rows)} group by ${sql.raw(groups)}) a
      full join (select ${sql.raw(key.join(', '))}, sum(n) as n from ${sql.table(counter)} group by ${sql.raw(groups)} having sum(n) <> 0) c using (${sql.raw(key.join(', '))})
      where a.n is distinct from c.n`.execute(db);
    if (bad[0].bad !== 0) return false;
  }
  return true;
}

/** ANALYZE and a checkpoint, so that neither planner statistics nor the load's writes weigh on what follows. */
export async function settleScale(db: Database): Promise<void> {
  await sql`vacuum analyze orders, turnover, webhook_deliveries, webhook_attempts, order_counts, order_days, webhook_delivery_counts, webhook_delivery_days, clients, audit_log, audit_counts, audit_days, events`.execute(
    db,
  );
  await sql`checkpoint`.execute(db);
}

/**
 * The other lists' histories of a branch: `count` clients, audit rows and events, a minute apart from
 * 2024-01-01 as its orders are. Clients: distinct emails and phones. Audit: one change in five by the command line,
 * the others by the branch's admin, over four entity types, three verbs and 5,000 entities. Events: order events
 * over the branch's exchanges, one in ten an offer event.
 */
export async function seedHistories(
  pool: Database,
  branch: ScaleBranch,
  exchangeIds: number[],
  count: number,
): Promise<void> {
  const b = branch.branchId;
  const staff = await pool
    .selectFrom('staff_users')
    .select('id')
    .where('email', '=', branch.staffEmail)
    .executeTakeFirstOrThrow();
  const ex = sql.raw(`array[${exchangeIds.join(',')}]`);
  const at = (g: string) => sql.raw(`timestamptz '2024-01-01' + ${g} * interval '1 minute'`);
  await bulkLoad(pool, ['clients'], [], () =>
    inRanges(1, count, (from, to) =>
      sql`
    insert into clients (branch_id, first_name, last_name, email, phone, created_at, updated_at)
    select ${b}::int, 'Client', 'No ' || g, 'client-' || g || '@branch-' || ${b}::int || '.example', '+1' || lpad(g::text, 9, '0') || lpad(${b}::int::text, 3, '0'),
      ${at('g')}, ${at('g')} + (g % 13) * interval '1 hour'
    from generate_series(${from}::int, ${to}::int) g`.execute(pool),
    ),
  );
  await bulkLoad(pool, ['audit_log'], [], () =>
    inRanges(1, count, (from, to) =>
      sql`
    insert into audit_log (actor, staff_user_id, role, action, entity_type, entity_id, branch_id, created_at)
    select case when g % 5 = 0 then 'cli' else 'staff' end, case when g % 5 = 0 then null else ${staff.id}::int end,
      case when g % 5 = 0 then 'cli' else 'admin' end, t.type || '.' || (array['create', 'update', 'delete'])[1 + g % 3], t.type, (g % 5000)::text,
      ${b}::int, ${at('g')}
    from generate_series(${from}::int, ${to}::int) g, lateral (select (array['exchange', 'offer', 'staff', 'webhook'])[1 + g % 4] as type) t`.execute(
        pool,
      ),
    ),
  );
  await bulkLoad(pool, ['events'], [], () =>
    inRanges(1, count, (from, to) =>
      sql`
    insert into events (id, event, branch_id, exchange_id, is_order_event, body, created_at)
    select gen_random_uuid(), case when g % 10 = 0 then 'offer.updated' else 'order.created' end, ${b}::int, (${ex})[1 + g % ${exchangeIds.length}::int],
      g % 10 <> 0, '{"event":"order.created","data":{"id":' || g || '}}', ${at('g')}
    from generate_series(${from}::int, ${to}::int) g`.execute(pool),
    ),
  );
}
