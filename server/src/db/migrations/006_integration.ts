import type { Kysely } from 'kysely';
import { runScript } from '../script.js';

/**
 * Issue 24, items 1–3: stored answers of idempotent requests, firm quotes, and the events feed (every event the
 * outbox enqueues, with the id its webhook envelope carries).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
create table idempotency_keys (
  api_key_id uuid not null references api_keys(id) on delete cascade,
  key text not null,
  request_hash text not null,
  status integer,
  response text,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  primary key (api_key_id, key)
);
create index idempotency_keys_expires_idx on idempotency_keys (expires_at);

create table quotes (
  id uuid primary key default gen_random_uuid(),
  branch_id integer not null references branches(id),
  exchange_id integer not null references exchanges(id),
  source_currency_id integer not null references currencies(id),
  dest_currency_id integer not null references currencies(id),
  offer_id integer not null references offers(id),
  rate numeric(38,18) not null,
  is_reverse boolean not null,
  source_amount numeric(38,18) not null,
  dest_amount numeric(38,18) not null,
  api_key_id uuid not null references api_keys(id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  order_id integer references orders(id)
);
create index quotes_expires_idx on quotes (expires_at);

create table events (
  seq bigserial primary key,
  id uuid not null unique,
  event text not null,
  branch_id integer not null,
  exchange_id integer not null,
  is_order_event boolean not null,
  body text not null,
  tx_id xid8 not null default pg_current_xact_id(),
  created_at timestamptz not null default now()
);
create index events_feed_idx on events (branch_id, tx_id, seq);
create index events_created_idx on events (created_at);
`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
drop table events;
drop table quotes;
drop table idempotency_keys;
`,
  );
}
