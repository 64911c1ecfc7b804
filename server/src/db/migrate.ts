import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as initial from './migrations/001_initial.js';
import * as webhookRetention from './migrations/002_webhook_retention.js';
import * as scale from './migrations/005_scale.js';

/** Migrations are listed in code so the compiled service needs no file-system scan. */
const migrations: Record<string, Migration> = {
  '001_initial': initial,
  '002_webhook_retention': webhookRetention,
  '005_scale': scale,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
