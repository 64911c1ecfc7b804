import type { Kysely } from 'kysely';
import { runScript } from '../script.js';

/**
 * Keys and secrets that roll (docs/decisions.md, "Staff, keys and the back office"). A rolled key points at its replacement and keeps working until its
 * expires_at; a rotated webhook secret keeps signing beside the new one until previous_secret_expires_at.
 * The indexes serve the per-owner limits (active personal keys per staff user, webhooks per owner).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
alter table api_keys add column replaced_by uuid references api_keys(id) on delete set null;
alter table webhooks add column previous_secret_key text;
alter table webhooks add column previous_secret_expires_at timestamptz;
alter table webhooks add constraint webhooks_previous_secret_check check ((previous_secret_key is null) = (previous_secret_expires_at is null));
create index api_keys_personal_owner_idx on api_keys (staff_user_id) where type = 'personal' and is_active and replaced_by is null;
`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
drop index api_keys_personal_owner_idx;
alter table webhooks drop constraint webhooks_previous_secret_check;
alter table webhooks drop column previous_secret_expires_at;
alter table webhooks drop column previous_secret_key;
alter table api_keys drop column replaced_by;
`,
  );
}
