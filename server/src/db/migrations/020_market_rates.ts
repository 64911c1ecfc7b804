import type { Kysely } from 'kysely';
import { runScript } from '../script.js';

/**
 * Market rates (docs/rates.md): rate sources a branch reads references from, offers priced from them, and the
 * history of every rate applied.
 *
 * - `rate_sources.next_poll_at` is the poll lease: an instance claims a due source by moving it forward in the same
 *   conditional update (`where next_poll_at <= now()`), so one poll runs per interval however many instances run.
 *   `last_quotes` keeps the pairs last read, as published (`{"USD/RUB": "91.55"}`), for staff and for re-pricing an
 *   offer that is switched to the source between polls.
 * - An offer's pricing: `fixed` (the rate staff type) or `source` (reference × (1 + margin), rounded down, clamped).
 *   `pricing_state` is kept apart from `is_active` so a resumed or recovered offer returns to what staff had set:
 *   partners see an offer only when it is active and not suspended. `reference_rate` is the reference the current
 *   rate was made from; an order priced from the offer copies it.
 * - `offer_rates` holds every applied rate with its reference, 90 days, pruned by time like deliveries.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
create table rate_sources (
  id serial primary key,
  branch_id integer not null references branches(id),
  name text not null check (length(trim(name)) between 1 and 200),
  kind text not null check (kind in ('ecb', 'cbr', 'binance', 'json')),
  url text not null,
  interval_seconds integer not null default 60 check (interval_seconds between 1 and 86400),
  max_age_seconds integer not null default 300 check (max_age_seconds between 1 and 31536000),
  next_poll_at timestamptz not null default now(),
  last_success_at timestamptz,
  last_error text,
  last_error_at timestamptz,
  last_quotes jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint rate_sources_name_key unique (branch_id, name)
);
create index rate_sources_due_idx on rate_sources (next_poll_at);

alter table offers add column pricing_mode text not null default 'fixed' check (pricing_mode in ('fixed', 'source'));
alter table offers add column rate_source_id integer references rate_sources(id);
alter table offers add column pricing_base text;
alter table offers add column pricing_quote text;
alter table offers add column margin_percent numeric(38,18);
alter table offers add column rate_decimals integer check (rate_decimals between 0 and 18);
alter table offers add column rate_floor numeric(38,18) check (rate_floor > 0);
alter table offers add column rate_ceiling numeric(38,18) check (rate_ceiling > 0);
alter table offers add column max_jump_percent numeric(38,18) check (max_jump_percent > 0);
alter table offers add column pricing_state text not null default 'active' check (pricing_state in ('active', 'suspended'));
alter table offers add column suspended_reason text check (suspended_reason in ('stale', 'jump'));
alter table offers add column reference_rate numeric(38,18);
alter table offers add column reference_at timestamptz;
alter table offers add constraint offers_pricing_check check (
  pricing_mode = 'fixed'
  or (rate_source_id is not null and pricing_base is not null and pricing_quote is not null and margin_percent is not null)
);
alter table offers add constraint offers_suspension_check check ((pricing_state = 'suspended') = (suspended_reason is not null));
alter table offers add constraint offers_bounds_check check (rate_floor is null or rate_ceiling is null or rate_floor <= rate_ceiling);
create index offers_rate_source_idx on offers (rate_source_id) where rate_source_id is not null;

create table offer_rates (
  id bigserial primary key,
  offer_id integer not null references offers(id) on delete cascade,
  rate numeric(38,18) not null,
  reference_rate numeric(38,18),
  created_at timestamptz not null default now()
);
create index offer_rates_offer_idx on offer_rates (offer_id, created_at);
create index offer_rates_created_idx on offer_rates (created_at);
`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
drop table offer_rates;
drop index offers_rate_source_idx;
alter table offers drop constraint offers_bounds_check;
alter table offers drop constraint offers_suspension_check;
alter table offers drop constraint offers_pricing_check;
alter table offers drop column reference_at;
alter table offers drop column reference_rate;
alter table offers drop column suspended_reason;
alter table offers drop column pricing_state;
alter table offers drop column max_jump_percent;
alter table offers drop column rate_ceiling;
alter table offers drop column rate_floor;
alter table offers drop column rate_decimals;
alter table offers drop column margin_percent;
alter table offers drop column pricing_quote;
alter table offers drop column pricing_base;
alter table offers drop column rate_source_id;
alter table offers drop column pricing_mode;
drop table rate_sources;
`,
  );
}
