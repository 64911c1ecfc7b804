import type { Kysely } from 'kysely';
import { runScript } from '../script.js';
import { ACTIVITY } from './001_initial/activity.js';
import { NETWORK } from './001_initial/network.js';

/**
 * The whole data model of the product, in two scripts run in order. Rules that protect data (ranges, enums,
 * uniqueness, references) live in it as constraints so that no code path can bypass them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, NETWORK);
  await runScript(db, ACTIVITY);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
drop table webhook_attempts, webhook_deliveries, webhooks, order_status_history, orders, client_exchanges, clients,
  api_keys, staff_user_exchanges, staff_users, payment_methods, offers, currencies, exchange_schedule, exchanges, branches;
`,
  );
}
