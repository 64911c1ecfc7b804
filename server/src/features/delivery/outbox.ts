import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { sql, type QueryCreator, type RawBuilder } from 'kysely';
import type { Executor, Tx } from '../../db/database.js';
import { memoQuery } from '../../db/memo.js';
import type { WebhookEvent } from '../../db/schema.js';

export interface OutboxEvent {
  event: WebhookEvent;
  /** Where the resource lives: decides which webhooks' principals can read it. */
  branchId: number;
  exchangeId: number;
  data: Record<string, unknown>;
  /** Extra top-level envelope fields (order.status_changed carries `status`). */
  envelope?: Record<string, unknown>;
  occurredAt?: Date;
}

/** The channel a committed outbox write is announced on (Postgres NOTIFY is delivered only at commit). */
export const OUTBOX_CHANNEL = 'pxs_webhook_deliveries';

const ORDER_EVENTS = new Set<WebhookEvent>(['order.created', 'order.status_changed', 'order.cancelled']);
const local = new EventEmitter().setMaxListeners(0);

/**
 * Workers of this process hear of new deliveries at once instead of at their next poll. The signal fires
 * before the caller commits: on PGlite the worker's claim queues behind the transaction; on Postgres it may
 * find nothing, and the NOTIFY sent at commit wakes the worker again.
 */
export function onEnqueued(listener: () => void): () => void {
  local.on('enqueued', listener);
  return () => local.off('enqueued', listener);
}

/**
 * The transactional outbox: writes the event to the events feed and one delivery per subscribed, active webhook
 * whose principal can read the resource when the event happens, inside the caller's transaction, so an event is
 * delivered and listed exactly when its change commits. Returns the number of deliveries written.
 */
export async function enqueue(tx: Tx, events: readonly OutboxEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  if (events.length === 1) {
    const v = eventValues(events[0]!);
    const { rows } =
      await sql<DeliveriesWritten>`with inserted as (${deliveriesInsert(v)}), logged as (${eventInsert(v)}) ${deliveriesWritten('inserted')}`.execute(
        tx,
      );
    return wake(Number(rows[0]?.deliveries ?? 0));
  }
  // Many events (a source re-pricing its offers): one statement for all, not a round trip each.
  const values = events.map(eventValues);
  const { rows } = await sql<DeliveriesWritten>`with ev as (${eventRows(values)}),
    inserted as (${deliveriesInsertFrom('ev')}),
    logged as (${eventInsertFrom('ev')})
    ${deliveriesWritten('inserted')}`.execute(tx);
  return wake(Number(rows[0]?.deliveries ?? 0));
}

/** An event as its deliveries' insert takes it: flat values, so that a memoized statement can carry them. */
export type EventValues = {
  eventId: string;
  event: WebhookEvent;
  body: string;
  branchId: number;
  exchangeId: number;
  isOrderEvent: boolean;
};

/**
 * The envelope every delivery of the event and the events feed carry, serialized once, and the values that pick
 * its webhooks. `id` is the event's: the same in every delivery of it and in the feed, so a receiver that reads
 * both can drop what it has already handled.
 */
export function eventValues(e: OutboxEvent): EventValues {
  const eventId = randomUUID();
  // Object.assign, not a spread: this runs for every new order (docs/decisions.md, "No object spread"). Same key order.
  const body = JSON.stringify(
    Object.assign({ id: eventId, event: e.event, timestamp: (e.occurredAt ?? new Date()).toISOString() }, e.envelope, {
      data: e.data,
    }),
  );
  return {
    eventId,
    event: e.event,
    body,
    branchId: e.branchId,
    exchangeId: e.exchangeId,
    isOrderEvent: ORDER_EVENTS.has(e.event),
  };
}

export interface DeliveriesWritten {
  deliveries: number;
}

/**
 * A write and its event's deliveries in one statement, which commits or fails as a whole without a transaction
 * of its own: for a hot write, where BEGIN and COMMIT would double its round trips. `write` adds the caller's
 * CTEs and names the one whose rows are returned `written`; its values come with the event's (eventValues)
 * beside them, all flat. Memoized as reads are (db/memo.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the CTEs `write` adds name tables of its own, outside DB
export function withEvent<P extends Record<string, unknown>, Row>(write: (db: Executor, p: P) => QueryCreator<any>) {
  const statement = memoQuery((db, p: P & EventValues) => {
    const { eventId, event, body, branchId, exchangeId, isOrderEvent, ...own } = p;
    const values = { eventId, event, body, branchId, exchangeId, isOrderEvent };
    return write(db, own as unknown as P)
      .with('outbox', () => sql`(${deliveriesInsert(values)})`)
      .with('logged_event', () => sql`(${eventInsert(values)})`)
      .selectFrom(['written', sql<DeliveriesWritten>`(${deliveriesWritten('outbox')})`.as('n')])
      .selectAll('written')
      .select('n.deliveries');
  });
  return async (db: Executor, values: P & EventValues): Promise<Row & DeliveriesWritten> => {
    const [row] = await statement(db, values);
    wake(Number(row.deliveries));
    return row as Row & DeliveriesWritten;
  };
}

/** The values an event's audience is decided by: bound parameters for one event, a row's columns for many. */
interface AudienceOf {
  event: RawBuilder<unknown>;
  branchId: RawBuilder<unknown>;
  exchangeId: RawBuilder<unknown>;
  isOrderEvent: RawBuilder<unknown>;
}

/**
 * The webhooks `w` (with their owner `s`) that get a delivery of an event: subscribed and active, whose principal
 * can read the resource. Offers are readable branch-wide; orders need the exchange in an operator's scope and
 * `orders:read`. The one rule for both inserts below.
 */
function audience(e: AudienceOf) {
  return sql<boolean>`w.is_active
      and ${e.event} = any(w.events)
      and (
        (w.staff_user_id is null and w.branch_id = ${e.branchId})
        or (s.is_active and (
          s.role = 'superadmin'
          or (s.branch_id = ${e.branchId} and (
            s.role = 'admin'
            or not ${e.isOrderEvent}
            or ('orders:read' = any(s.permissions) and exists (
              select 1 from staff_user_exchanges x where x.staff_user_id = s.id and x.exchange_id = ${e.exchangeId}))
          ))
        ))
      )`;
}

/** The insert of one event's deliveries, its values bound as parameters (the hot path: one order's event). */
function deliveriesInsert(v: EventValues) {
  return sql<{ one: number }>`
    insert into webhook_deliveries (webhook_id, event, body, next_attempt_at)
    select w.id, ${v.event}, ${v.body}, now()
    from webhooks w
    left join staff_users s on s.id = w.staff_user_id
    where ${audience({ event: sql`${v.event}`, branchId: sql`${v.branchId}`, exchangeId: sql`${v.exchangeId}`, isOrderEvent: sql`${v.isOrderEvent}` })}
    returning 1 as one`;
}

/** The event's row in the events feed (features/events); the transaction's id orders the feed (see there). */
function eventInsert(v: EventValues) {
  return sql<never>`
    insert into events (id, event, branch_id, exchange_id, is_order_event, body)
    values (${v.eventId}::uuid, ${v.event}, ${v.branchId}, ${v.exchangeId}, ${v.isOrderEvent}, ${v.body})`;
}

/** Many events as rows (id, event, body, branch_id, exchange_id, is_order_event, n), `n` their order. */
function eventRows(values: readonly EventValues[]) {
  return sql`select * from unnest(
      ${values.map((v) => v.eventId)}::uuid[], ${values.map((v) => v.event)}::text[], ${values.map((v) => v.body)}::text[],
      ${values.map((v) => v.branchId)}::int[], ${values.map((v) => v.exchangeId)}::int[],
      ${values.map((v) => v.isOrderEvent)}::boolean[]
    ) with ordinality as e(id, event, body, branch_id, exchange_id, is_order_event, n)`;
}

/** The deliveries of the events of CTE `rows` (eventRows), in their order. */
function deliveriesInsertFrom(rows: string) {
  return sql<{ one: number }>`
    insert into webhook_deliveries (webhook_id, event, body, next_attempt_at)
    select w.id, e.event, e.body, now()
    from ${sql.table(rows)} e
    join webhooks w on true
    left join staff_users s on s.id = w.staff_user_id
    where ${audience({ event: sql.ref('e.event'), branchId: sql.ref('e.branch_id'), exchangeId: sql.ref('e.exchange_id'), isOrderEvent: sql.ref('e.is_order_event') })}
    order by e.n
    returning 1 as one`;
}

/** The events of CTE `rows` in the events feed, in their order. */
function eventInsertFrom(rows: string) {
  return sql<never>`
    insert into events (id, event, branch_id, exchange_id, is_order_event, body)
    select e.id, e.event, e.branch_id, e.exchange_id, e.is_order_event, e.body from ${sql.table(rows)} e order by e.n`;
}

/** One row counting the deliveries the CTE `cte` wrote, with the NOTIFY that wakes other processes' workers at commit. */
function deliveriesWritten(cte: string) {
  return sql<DeliveriesWritten>`select count(*)::int as deliveries, (case when count(*) > 0 then pg_notify(${OUTBOX_CHANNEL}, '') end)::text as notified from ${sql.table(cte)}`;
}

/** Wakes this process's workers if deliveries were written; returns their number. */
function wake(n: number): number {
  if (n > 0) local.emit('enqueued');
  return n;
}

/** Announces deliveries made due outside the outbox (a manual retry), to this process's and other workers. */
export async function announceDeliveries(db: Executor): Promise<void> {
  await sql`select pg_notify(${OUTBOX_CHANNEL}, '')`.execute(db);
  local.emit('enqueued');
}
