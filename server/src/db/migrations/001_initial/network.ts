/** The network and who works in it: branches, exchanges and their hours, currencies, offers, payment methods, staff, API keys. */
export const NETWORK = `
create table branches (
  id serial primary key,
  name text not null check (length(trim(name)) between 1 and 200),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint branches_name_key unique (name)
);

create table exchanges (
  id serial primary key,
  branch_id integer not null references branches(id),
  name text not null check (length(trim(name)) between 1 and 200),
  address text not null default '',
  city text not null default '',
  phone_number text not null default '',
  chat_url text not null default '',
  latitude numeric(9,6) check (latitude between -90 and 90),
  longitude numeric(9,6) check (longitude between -180 and 180),
  timezone text not null default 'UTC',
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((latitude is null) = (longitude is null))
);
create index exchanges_branch_idx on exchanges (branch_id, id);

-- ISO day of week: 1 = Monday … 7 = Sunday.
create table exchange_schedule (
  exchange_id integer not null references exchanges(id) on delete cascade,
  day_of_week smallint not null check (day_of_week between 1 and 7),
  open_time time,
  close_time time,
  is_closed boolean not null default false,
  primary key (exchange_id, day_of_week),
  check (is_closed or (open_time is not null and close_time is not null))
);

create table currencies (
  id serial primary key,
  code text not null check (code ~ '^[A-Z0-9]{2,10}$'),
  name text not null check (length(trim(name)) between 1 and 100),
  kind text not null default 'fiat' check (kind in ('fiat', 'crypto')),
  decimals smallint not null check (decimals between 0 and 18),
  image_id uuid,
  image_path text,
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint currencies_code_key unique (code),
  check ((image_id is null) = (image_path is null))
);

-- rate: units of currency2 given for one unit of currency1; limits are in currency1.
create table offers (
  id serial primary key,
  exchange_id integer not null references exchanges(id),
  currency1_id integer not null references currencies(id),
  currency2_id integer not null references currencies(id),
  rate numeric(38,18) not null check (rate > 0),
  min_amount numeric(38,18) not null default 0 check (min_amount >= 0),
  max_amount numeric(38,18) not null check (max_amount > 0),
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (currency1_id <> currency2_id),
  check (min_amount <= max_amount),
  constraint offers_pair_key unique (exchange_id, currency1_id, currency2_id)
);
create index offers_active_idx on offers (exchange_id, is_active);
create index offers_currency1_idx on offers (currency1_id);
create index offers_currency2_idx on offers (currency2_id);

create table payment_methods (
  id serial primary key,
  branch_id integer not null references branches(id),
  exchange_id integer references exchanges(id),
  currency_id integer references currencies(id),
  name text not null check (length(trim(name)) between 1 and 100),
  kind text not null default 'cash' check (kind in ('cash', 'card', 'bank_transfer', 'crypto', 'other')),
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index payment_methods_branch_idx on payment_methods (branch_id);

create table staff_users (
  id serial primary key,
  email text not null check (email = lower(email) and length(email) between 3 and 254),
  password_hash text not null,
  role text not null check (role in ('superadmin', 'admin', 'operator')),
  branch_id integer references branches(id),
  permissions text[] not null default '{}',
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint staff_users_email_key unique (email),
  check (role = 'superadmin' or branch_id is not null),
  check (permissions <@ array['orders:read','orders:write','clients:read','clients:write','webhooks:manage']::text[])
);

create table staff_user_exchanges (
  staff_user_id integer not null references staff_users(id) on delete cascade,
  exchange_id integer not null references exchanges(id) on delete cascade,
  primary key (staff_user_id, exchange_id)
);
create index staff_user_exchanges_exchange_idx on staff_user_exchanges (exchange_id);

-- Only a SHA-256 of the key is stored; the raw key is shown once at creation.
create table api_keys (
  id uuid primary key default gen_random_uuid(),
  name text not null check (length(trim(name)) between 1 and 100),
  type text not null check (type in ('personal', 'branch', 'public')),
  key_hash text not null,
  key_prefix text not null,
  staff_user_id integer not null references staff_users(id),
  branch_id integer references branches(id),
  is_active boolean not null default true,
  expires_at timestamptz,
  last_used_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint api_keys_key_hash_key unique (key_hash),
  check ((type = 'personal') = (branch_id is null)),
  check (is_active or revoked_at is not null)
);
create index api_keys_staff_user_idx on api_keys (staff_user_id, created_at);
`;
