/** What happens in the network: clients, orders and their history, webhooks, their deliveries and attempts. */
export const ACTIVITY = `
create table clients (
  id serial primary key,
  branch_id integer not null references branches(id),
  first_name text not null check (length(first_name) between 1 and 100),
  last_name text not null check (length(last_name) between 1 and 100),
  email text not null check (email = lower(email)),
  phone text not null check (phone ~ '^\\+[0-9]{7,15}$'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint clients_branch_email_key unique (branch_id, email)
);

create table client_exchanges (
  client_id integer not null references clients(id) on delete cascade,
  exchange_id integer not null references exchanges(id) on delete cascade,
  primary key (client_id, exchange_id)
);
create index client_exchanges_exchange_idx on client_exchanges (exchange_id);

create table orders (
  id serial primary key,
  hashed_id text not null,
  branch_id integer not null references branches(id),
  cashbox_id integer not null references exchanges(id),
  currency1_id integer not null references currencies(id),
  currency2_id integer not null references currencies(id),
  client_amount numeric(38,18) not null check (client_amount > 0),
  exchange_amount numeric(38,18) not null check (exchange_amount > 0),
  status text not null default 'ORDERINIT'
    check (status in ('ORDERINIT', 'CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'CASHOUT', 'SUCCESS', 'CANCEL')),
  operation_type text not null check (operation_type in ('offer', 'finop')),
  offer_id integer references offers(id),
  rate numeric(38,18),
  is_reverse boolean,
  user_id integer references clients(id),
  payment_method_source_id integer references payment_methods(id),
  payment_method_dest_id integer references payment_methods(id),
  comment text check (length(comment) <= 2000),
  client_comment text check (length(client_comment) <= 2000),
  user_wallet text check (length(user_wallet) <= 200),
  tg_nick_name text check (length(tg_nick_name) <= 100),
  created_by_key_id uuid references api_keys(id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint orders_hashed_id_key unique (hashed_id),
  check (currency1_id <> currency2_id),
  check ((operation_type = 'offer') = (offer_id is not null))
);
create index orders_cashbox_idx on orders (cashbox_id, id);
create index orders_branch_idx on orders (branch_id, id);
create index orders_branch_created_idx on orders (branch_id, created_at);
create index orders_user_idx on orders (user_id) where user_id is not null;

create table order_status_history (
  id bigserial primary key,
  order_id integer not null references orders(id) on delete cascade,
  from_status text,
  to_status text not null,
  actor_type text not null check (actor_type in ('api_key', 'staff', 'system')),
  staff_user_id integer references staff_users(id),
  api_key_id uuid references api_keys(id),
  comment text check (length(comment) <= 2000),
  created_at timestamptz not null default now()
);
create index order_status_history_order_idx on order_status_history (order_id, id);

-- A webhook belongs to the principal that created it: a staff user (personal key) or its branch (branch key).
-- branch_id is null only for a superadmin's own webhooks, which see every branch.
create table webhooks (
  id uuid primary key default gen_random_uuid(),
  branch_id integer references branches(id),
  staff_user_id integer references staff_users(id),
  created_by_key_id uuid references api_keys(id) on delete set null,
  url text not null check (length(url) <= 2048),
  events text[] not null check (cardinality(events) > 0),
  secret_key text not null,
  is_active boolean not null default true,
  fail_count integer not null default 0 check (fail_count >= 0),
  deactivated_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (events <@ array['order.created','order.status_changed','order.cancelled','offer.updated']::text[]),
  check (branch_id is not null or staff_user_id is not null)
);
create index webhooks_branch_idx on webhooks (branch_id) where is_active;
create index webhooks_staff_user_idx on webhooks (staff_user_id);

-- The outbox: written in the transaction of the change it reports. body holds the exact bytes that are signed and sent.
create table webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  webhook_id uuid not null references webhooks(id) on delete cascade,
  event text not null,
  body text not null,
  status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed', 'abandoned')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  lease_expires_at timestamptz,
  leased_by text,
  last_response_status integer,
  last_error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  delivered_at timestamptz
);
create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_webhook_idx on webhook_deliveries (webhook_id, created_at);

create table webhook_attempts (
  id bigserial primary key,
  delivery_id uuid not null references webhook_deliveries(id) on delete cascade,
  attempt_number integer not null,
  started_at timestamptz not null,
  duration_ms integer not null,
  response_status integer,
  response_body text check (length(response_body) <= 1024),
  error text,
  created_at timestamptz not null default now()
);
create index webhook_attempts_delivery_idx on webhook_attempts (delivery_id, id);
`;
