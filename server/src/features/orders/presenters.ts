import type { OrderRow } from './repository.js';
import type { listHistory } from './repository.js';

const ref = (id: number | null) => (id === null ? null : { id });

/** An order row → the contract's Order. Amounts stay decimal strings until the serializer writes numbers. */
export function order(o: OrderRow) {
  return {
    id: o.id,
    hashedId: o.hashed_id,
    status: o.status,
    clientAmount: o.client_amount,
    exchangeAmount: o.exchange_amount,
    currency1: { id: o.currency1_id, code: o.c1_code },
    currency2: { id: o.currency2_id, code: o.c2_code },
    cashbox: { id: o.cashbox_id },
    user: ref(o.user_id),
    comment: o.comment,
    clientComment: o.client_comment,
    operationType: o.operation_type,
    paymentMethodSource: ref(o.payment_method_source_id),
    paymentMethodDest: ref(o.payment_method_dest_id),
    userWallet: o.user_wallet,
    tgNickName: o.tg_nick_name,
    offer: ref(o.offer_id),
    rate: o.rate ?? undefined,
    sandbox: o.sandbox,
    expiresAt: o.expires_at,
    createdAt: o.created_at,
    updatedAt: o.updated_at,
  };
}

// Fields are added to the object order() made, not spread into a copy (docs/decisions.md, "No object spread").
export function adminOrder(o: OrderRow) {
  return Object.assign(order(o), { branchId: o.branch_id, referenceRate: o.reference_rate });
}

export interface ClientNameRow {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
}

export function clientSummary(c: ClientNameRow) {
  return { id: c.id, name: `${c.first_name} ${c.last_name}`, email: c.email, phone: c.phone };
}

/** A listed order with its client, when the caller may read clients and the order has one (`clients` by id). */
export function listedAdminOrder(o: OrderRow, clients: ReadonlyMap<number, ClientNameRow> | null) {
  const client = o.user_id === null ? undefined : clients?.get(o.user_id);
  return Object.assign(adminOrder(o), { client: client ? clientSummary(client) : null });
}

type HistoryRow = Awaited<ReturnType<typeof listHistory>>[number];

export function orderDetail(o: OrderRow, history: HistoryRow[]) {
  return Object.assign(adminOrder(o), {
    history: history.map((h) => ({
      fromStatus: h.from_status,
      toStatus: h.to_status,
      actor: { type: h.actor_type, apiKeyId: h.api_key_id, staffUserId: h.staff_user_id, staffEmail: h.staff_email },
      comment: h.comment,
      createdAt: h.created_at,
    })),
  });
}
