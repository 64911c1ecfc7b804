import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Decimal values travel as strings between the database and the code; never as JS numbers. */
export type Decimal = ColumnType<string, string, string>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type NullableString = ColumnType<string | null, string | null | undefined, string | null>;
type Coordinate = ColumnType<string | null, string | number | null | undefined, string | number | null>;

export type {
  ApiKeyType,
  CashMovementKind,
  DeliveryStatus,
  OperationType,
  OrderStatus,
  Permission,
  StaffRole,
  WebhookEvent,
} from './enums.js';
import type {
  ApiKeyType,
  CashMovementKind,
  DeliveryStatus,
  OperationType,
  OrderStatus,
  Permission,
  StaffRole,
  WebhookEvent,
} from './enums.js';

export interface BranchesTable {
  id: Generated<number>;
  name: string;
  is_sandbox: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface ExchangesTable {
  id: Generated<number>;
  branch_id: number;
  name: string;
  address: Generated<string>;
  city: Generated<string>;
  phone_number: Generated<string>;
  chat_url: Generated<string>;
  latitude: Coordinate;
  longitude: Coordinate;
  timezone: Generated<string>;
  is_active: Generated<boolean>;
  /** How long an order waits for the client's payment before the system cancels it; 0: orders never expire. */
  payment_window_seconds: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface ExchangeScheduleTable {
  exchange_id: number;
  day_of_week: number;
  open_time: string | null;
  close_time: string | null;
  is_closed: Generated<boolean>;
}

export interface CurrenciesTable {
  id: Generated<number>;
  code: string;
  name: string;
  kind: Generated<'fiat' | 'crypto'>;
  decimals: number;
  image_id: string | null;
  image_path: string | null;
  is_active: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface OffersTable {
  id: Generated<number>;
  exchange_id: number;
  currency1_id: number;
  currency2_id: number;
  rate: Decimal;
  min_amount: ColumnType<string, string | undefined, string>;
  max_amount: Decimal;
  is_active: Generated<boolean>;
  /** `fixed`: the rate staff type; `source`: made from a rate source's reference (docs/rates.md). */
  pricing_mode: Generated<'fixed' | 'source'>;
  rate_source_id: Generated<number | null>;
  /** The pair read from the source, as the source names its currencies: reference = 1 base in quote. */
  pricing_base: Generated<string | null>;
  pricing_quote: Generated<string | null>;
  margin_percent: Generated<string | null>;
  rate_decimals: Generated<number | null>;
  rate_floor: Generated<string | null>;
  rate_ceiling: Generated<string | null>;
  max_jump_percent: Generated<string | null>;
  /** Partners see an offer only when it is active and not suspended by a safety stop. */
  pricing_state: Generated<'active' | 'suspended'>;
  suspended_reason: Generated<'stale' | 'jump' | null>;
  /** The reference the current rate was made from, and when it was read. */
  reference_rate: Generated<string | null>;
  reference_at: Generated<Date | null>;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface RateSourcesTable {
  id: Generated<number>;
  branch_id: number;
  name: string;
  kind: 'ecb' | 'cbr' | 'binance' | 'json';
  url: string;
  interval_seconds: Generated<number>;
  max_age_seconds: Generated<number>;
  /** The poll lease: claimed by moving it forward in a conditional update. */
  next_poll_at: Generated<Date>;
  last_success_at: Generated<Date | null>;
  last_error: Generated<string | null>;
  last_error_at: Generated<Date | null>;
  /** The pairs last read, as published: {"USD/RUB": "91.55"}. */
  last_quotes: Generated<Record<string, string> | null>;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface OfferRatesTable {
  id: Generated<string>;
  offer_id: number;
  rate: Decimal;
  reference_rate: string | null;
  created_at: Generated<Date>;
}

export interface PaymentMethodsTable {
  id: Generated<number>;
  branch_id: number;
  exchange_id: number | null;
  currency_id: number | null;
  name: string;
  kind: Generated<'cash' | 'card' | 'bank_transfer' | 'crypto' | 'other'>;
  is_active: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface StaffUsersTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  role: StaffRole;
  branch_id: number | null;
  permissions: ColumnType<Permission[], Permission[] | undefined, Permission[]>;
  is_active: Generated<boolean>;
  /** Access tokens issued at or before it are void (log out, new password, deactivation). */
  tokens_valid_after: NullableTimestamp;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface StaffUserExchangesTable {
  staff_user_id: number;
  exchange_id: number;
}

export interface ApiKeysTable {
  id: Generated<string>;
  name: string;
  type: ApiKeyType;
  key_hash: string;
  key_prefix: string;
  staff_user_id: number;
  branch_id: number | null;
  is_active: Generated<boolean>;
  expires_at: NullableTimestamp;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  /** The key this one was rolled to; it keeps working until its expires_at. */
  replaced_by: NullableString;
  /** Origins (scheme://host[:port]) whose pages may use a public key; empty: any. */
  allowed_origins: Generated<string[]>;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface ClientsTable {
  id: Generated<number>;
  branch_id: number;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface ClientExchangesTable {
  client_id: number;
  exchange_id: number;
}

export interface OrdersTable {
  id: Generated<number>;
  hashed_id: string;
  branch_id: number;
  cashbox_id: number;
  currency1_id: number;
  currency2_id: number;
  client_amount: Decimal;
  exchange_amount: Decimal;
  status: ColumnType<OrderStatus, OrderStatus | undefined, OrderStatus>;
  operation_type: OperationType;
  offer_id: number | null;
  rate: NullableString;
  is_reverse: boolean | null;
  user_id: number | null;
  payment_method_source_id: number | null;
  payment_method_dest_id: number | null;
  comment: string | null;
  client_comment: string | null;
  user_wallet: string | null;
  tg_nick_name: string | null;
  created_by_key_id: string | null;
  /** Placed in a sandbox branch: partners may move it themselves (POST /partner/sandbox/orders/{id}/status). */
  sandbox: Generated<boolean>;
  /** When the system cancels the order unpaid; set only while it is ORDERINIT or CLIENTPAYMENTWAIT. */
  expires_at: Generated<Date | null>;
  /** `partner` (the partner API) or `counter` (placed by a cashier for a walk-in client). */
  source: Generated<'partner' | 'counter'>;
  /** The cashier who placed a counter order; null for partner orders. */
  created_by_staff_id: Generated<number | null>;
  /** The market reference the rate was made from (offers priced from a rate source); null for fixed offers. */
  reference_rate: Generated<string | null>;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface OrderStatusHistoryTable {
  id: Generated<string>;
  order_id: number;
  from_status: OrderStatus | null;
  to_status: OrderStatus;
  actor_type: 'api_key' | 'staff' | 'system';
  staff_user_id: number | null;
  api_key_id: string | null;
  comment: string | null;
  created_at: Generated<Date>;
}

export interface WebhooksTable {
  id: Generated<string>;
  branch_id: number | null;
  staff_user_id: number | null;
  created_by_key_id: string | null;
  url: string;
  events: WebhookEvent[];
  secret_key: string;
  /** The secret a rotation replaced: it still signs beside secret_key until previous_secret_expires_at. */
  previous_secret_key: NullableString;
  previous_secret_expires_at: NullableTimestamp;
  is_active: Generated<boolean>;
  fail_count: Generated<number>;
  deactivated_at: NullableTimestamp;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface WebhookDeliveriesTable {
  id: Generated<string>;
  webhook_id: string;
  event: WebhookEvent;
  body: string;
  status: ColumnType<DeliveryStatus, DeliveryStatus | undefined, DeliveryStatus>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  lease_expires_at: NullableTimestamp;
  leased_by: string | null;
  last_response_status: number | null;
  last_error: string | null;
  created_at: Generated<Date>;
  updated_at: Timestamp;
  delivered_at: NullableTimestamp;
}

export interface WebhookAttemptsTable {
  id: Generated<string>;
  delivery_id: string;
  attempt_number: number;
  started_at: Date | string;
  duration_ms: number;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  created_at: Generated<Date>;
}

export interface AuditLogTable {
  id: Generated<number>;
  actor: 'staff' | 'cli';
  staff_user_id: number | null;
  role: string;
  action: string;
  entity_type: string;
  entity_id: string;
  branch_id: number | null;
  before: ColumnType<unknown, string | null, never>;
  after: ColumnType<unknown, string | null, never>;
  ip: string | null;
  request_id: string | null;
  created_at: Generated<Date>;
}

/** What an exchange holds of a currency it tracks (migration 017); `held` is promised to open orders. */
export interface CashPositionsTable {
  exchange_id: number;
  currency_id: number;
  balance: ColumnType<string, string | undefined, string>;
  held: ColumnType<string, string | undefined, string>;
  low_watermark: ColumnType<string, string | undefined, string>;
  updated_at: Timestamp;
}

/** The append-only ledger of a position's balance: the balance is always the sum of its amounts. */
export interface CashMovementsTable {
  id: Generated<string>;
  exchange_id: number;
  currency_id: number;
  kind: CashMovementKind;
  amount: Decimal;
  balance_after: Decimal;
  order_id: number | null;
  staff_user_id: number | null;
  reason: string | null;
  created_at: Generated<Date>;
}

export interface DB {
  branches: BranchesTable;
  exchanges: ExchangesTable;
  exchange_schedule: ExchangeScheduleTable;
  currencies: CurrenciesTable;
  offers: OffersTable;
  payment_methods: PaymentMethodsTable;
  staff_users: StaffUsersTable;
  staff_user_exchanges: StaffUserExchangesTable;
  api_keys: ApiKeysTable;
  clients: ClientsTable;
  client_exchanges: ClientExchangesTable;
  orders: OrdersTable;
  order_status_history: OrderStatusHistoryTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  audit_log: AuditLogTable;
  cash_positions: CashPositionsTable;
  cash_movements: CashMovementsTable;
  rate_sources: RateSourcesTable;
  offer_rates: OfferRatesTable;
}

export type Order = Selectable<OrdersTable>;
export type NewOrder = Insertable<OrdersTable>;
export type OrderUpdate = Updateable<OrdersTable>;
export type Offer = Selectable<OffersTable>;
export type Exchange = Selectable<ExchangesTable>;
export type Currency = Selectable<CurrenciesTable>;
export type StaffUser = Selectable<StaffUsersTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type Client = Selectable<ClientsTable>;
export type Webhook = Selectable<WebhooksTable>;
export type WebhookDelivery = Selectable<WebhookDeliveriesTable>;
