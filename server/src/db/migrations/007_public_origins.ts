import type { Kysely } from 'kysely';
import { runScript } from '../script.js';

/** The web origins whose pages may use a public key (empty: any); a convenience, not a secret (docs/widget.md). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
alter table api_keys add column allowed_origins text[] not null default '{}';
`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'alter table api_keys drop column allowed_origins;');
}
