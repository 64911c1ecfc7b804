import type { Kysely } from 'kysely';
import { runScript } from '../script.js';

/**
 * Sandbox branches (docs/integration.md). An order records whether it was placed in a sandbox when it is created, so a
 * branch that stops being a sandbox never lets partners move its real orders, and no read needs a join.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
alter table branches add column is_sandbox boolean not null default false;
alter table orders add column sandbox boolean not null default false;
`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
alter table orders drop column sandbox;
alter table branches drop column is_sandbox;
`,
  );
}
