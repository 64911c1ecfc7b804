import type { Kysely } from 'kysely';
import { runScript } from '../script.js';

/**
 * Every list's filters and sorts at a million rows (`npm run bench -- --scale` measures each against the
 * same request on 2,000 rows): an index for each allowed sort within the list's scope, (scope, column, id), read in
 * order for a page, and for each filter that leads a query, so that its capped count reads the index alone.
 * test/db/list-plans.test.ts checks the orders list's plans as the service runs them.
 *
 * - Orders: a cashbox's orders in a time window, newest first (what a partner polls and an operator's board
 *   reads); without it the count intersected the window with every order of the cashbox (250,000 index entries for
 *   2,681 matches). The index of migration 010 (branch_id, id) duplicated orders_branch_idx, which answers the id
 *   sort's branch bound (features/orders/branch-range.ts) as well.
 * - A webhook's delivery log: by status, event, attempts, last change, and creation with the id for the keyset
 *   (a sort on any of the first four sorted the webhook's 2,500,000 deliveries for each page).
 * - Clients of a branch: by id, creation and last change, and the exact phone lookup (the email has its unique
 *   index). The id sort walked the primary key from the end past every other branch's clients.
 * - The audit log, now read in time order (features/audit/admin-routes.ts): a branch's by time, and by actor, action and
 *   entity type in time (the counts of a filter read up to 120,000 rows to find 10,001); a staff user's in time.
 */
const INDEXES: [name: string, definition: string][] = [
  ['orders_branch_cashbox_created_idx', 'orders (branch_id, cashbox_id, created_at, id)'],
  ['webhook_deliveries_webhook_created_idx', 'webhook_deliveries (webhook_id, created_at, id)'],
  ['webhook_deliveries_webhook_status_idx', 'webhook_deliveries (webhook_id, status, id)'],
  ['webhook_deliveries_webhook_event_idx', 'webhook_deliveries (webhook_id, event, id)'],
  ['webhook_deliveries_webhook_attempts_idx', 'webhook_deliveries (webhook_id, attempts, id)'],
  ['webhook_deliveries_webhook_updated_idx', 'webhook_deliveries (webhook_id, updated_at, id)'],
  ['clients_branch_idx', 'clients (branch_id, id)'],
  ['clients_branch_created_idx', 'clients (branch_id, created_at, id)'],
  ['clients_branch_updated_idx', 'clients (branch_id, updated_at, id)'],
  ['clients_branch_phone_idx', 'clients (branch_id, phone)'],
  ['audit_log_branch_created_idx', 'audit_log (branch_id, created_at, id)'],
  ['audit_log_branch_actor_idx', 'audit_log (branch_id, actor, created_at, id)'],
  ['audit_log_branch_action_idx', 'audit_log (branch_id, action, created_at, id)'],
  ['audit_log_branch_entity_type_idx', 'audit_log (branch_id, entity_type, created_at, id)'],
  ['audit_log_staff_created_idx', 'audit_log (staff_user_id, created_at, id)'],
  ['audit_log_created_id_idx', 'audit_log (created_at, id)'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    [
      ...INDEXES.map(([name, definition]) => `create index ${name} on ${definition};`),
      'drop index orders_branch_id_idx;',
      'drop index webhook_deliveries_webhook_idx;',
      'drop index audit_log_staff_idx;',
      'drop index audit_log_created_idx;',
    ].join('\n') + '\n',
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    [
      'create index audit_log_created_idx on audit_log (created_at);',
      'create index audit_log_staff_idx on audit_log (staff_user_id, id);',
      'create index webhook_deliveries_webhook_idx on webhook_deliveries (webhook_id, created_at);',
      'create index orders_branch_id_idx on orders (branch_id, id);',
      ...INDEXES.map(([name]) => `drop index ${name};`),
    ].join('\n') + '\n',
  );
}
