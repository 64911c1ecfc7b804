/**
 * Who made a change, carried from a route (or the CLI) to the service that writes it: the staff user and role
 * (or the command line), the client's address and the request id that the logs carry too.
 */
export interface AuditActor {
  staffUserId: number | null;
  role: string;
  ip: string | null;
  requestId: string | null;
}

/** The things a change can touch, as they read in `entityType`. */
export type AuditEntity =
  | 'branch'
  | 'exchange'
  | 'currency'
  | 'offer'
  | 'paymentMethod'
  | 'staff'
  | 'client'
  | 'order'
  | 'apiKey'
  | 'webhook'
  | 'cash'
  | 'rateSource';

export interface AuditEntry {
  /** `<entity>.<verb>`, e.g. `offer.update`, `order.move`, `apiKey.revoke`. */
  action: string;
  entityType: AuditEntity;
  entityId: string | number;
  /** The branch the changed thing belongs to (null: network-wide), which decides who may read the row. */
  branchId: number | null;
  before?: unknown;
  after?: unknown;
}
