import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as initial from './migrations/001_initial.js';
import * as webhookRetention from './migrations/002_webhook_retention.js';
import * as keyRoll from './migrations/003_key_roll.js';
import * as audit from './migrations/004_audit.js';
import * as scale from './migrations/005_scale.js';
import * as integration from './migrations/006_integration.js';
import * as publicOrigins from './migrations/007_public_origins.js';
import * as sandbox from './migrations/008_sandbox.js';
import * as catalogNotify from './migrations/009_catalog_notify.js';
import * as ordersBranchId from './migrations/010_orders_branch_id.js';
import * as webhooksFollowOwner from './migrations/011_webhooks_follow_owner.js';
import * as paymentMethodNames from './migrations/012_payment_method_names.js';
import * as staffTokenCutoff from './migrations/013_staff_token_cutoff.js';
import * as listIndexes from './migrations/014_list_indexes.js';
import * as listCounts from './migrations/015_list_counts.js';
import * as listFilterCounts from './migrations/016_list_filter_counts.js';
import * as cashPositions from './migrations/017_cash_positions.js';
import * as paymentWindow from './migrations/018_payment_window.js';
import * as orderOrigin from './migrations/019_order_origin.js';
import * as marketRates from './migrations/020_market_rates.js';
import * as turnover from './migrations/021_turnover.js';
import * as quoteReferenceRate from './migrations/022_quote_reference_rate.js';
import * as counterOrders from './migrations/023_counter_orders.js';
import * as staffIdempotency from './migrations/024_staff_idempotency.js';

/** Migrations are listed in code so the compiled service needs no file-system scan. */
const migrations: Record<string, Migration> = {
  '001_initial': initial,
  '002_webhook_retention': webhookRetention,
  '003_key_roll': keyRoll,
  '004_audit': audit,
  '005_scale': scale,
  '006_integration': integration,
  '007_public_origins': publicOrigins,
  '008_sandbox': sandbox,
  '009_catalog_notify': catalogNotify,
  '010_orders_branch_id': ordersBranchId,
  '011_webhooks_follow_owner': webhooksFollowOwner,
  '012_payment_method_names': paymentMethodNames,
  '013_staff_token_cutoff': staffTokenCutoff,
  '014_list_indexes': listIndexes,
  '015_list_counts': listCounts,
  '016_list_filter_counts': listFilterCounts,
  '017_cash_positions': cashPositions,
  '018_payment_window': paymentWindow,
  '019_order_origin': orderOrigin,
  '020_market_rates': marketRates,
  '021_turnover': turnover,
  '022_quote_reference_rate': quoteReferenceRate,
  '023_counter_orders': counterOrders,
  '024_staff_idempotency': staffIdempotency,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations meet every past shape of the schema, not DB (Kysely's own advice)
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  // Migrations are numbered by feature and merged in any order (004 may reach a database before 003); each stands
  // alone, so one that sorts before those already run is run rather than refused.
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a migration that threw something else: its text is all there is
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
