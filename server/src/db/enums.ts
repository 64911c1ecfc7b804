/** The closed sets of values that the database's enum-like columns hold. */
export type OrderStatus = 'ORDERINIT' | 'CLIENTPAYMENTWAIT' | 'EXCHANGEPAYMENTWAIT' | 'CASHOUT' | 'SUCCESS' | 'CANCEL';
export type OperationType = 'offer' | 'finop';
export type StaffRole = 'superadmin' | 'admin' | 'operator';
export type Permission =
  'orders:read' | 'orders:write' | 'clients:read' | 'clients:write' | 'webhooks:manage' | 'cash:write';
export type CashMovementKind = 'deposit' | 'withdrawal' | 'count' | 'transferIn' | 'transferOut' | 'orderSettled';
export type ApiKeyType = 'personal' | 'branch' | 'public';
export type WebhookEvent = 'order.created' | 'order.status_changed' | 'order.cancelled' | 'offer.updated';
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'abandoned';
