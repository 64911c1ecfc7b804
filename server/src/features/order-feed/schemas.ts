import { Type } from 'typebox';
import { DateTime, Nullable, StringEnum } from '../../http/schemas.js';

const Status = StringEnum(['ORDERINIT', 'CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'CASHOUT', 'SUCCESS', 'CANCEL']);

/** The `data` of each `order` event of the stream (documented here; the stream itself is text/event-stream). */
export const OrderChange = Type.Object(
  {
    orderId: Type.Integer(),
    fromStatus: Nullable(Status, { description: 'null for a new order' }),
    toStatus: Status,
    branchId: Type.Integer(),
    exchangeId: Type.Integer(),
    at: DateTime,
  },
  { $id: 'OrderChange', title: 'OrderChange' },
);

export const StreamResponse = {
  description:
    'A text/event-stream: `event: ready` once, then `event: order` with an OrderChange as data for every new order ' +
    'and status change the caller may read, and a comment every 15 s. The stream ends when the access token expires or the ' +
    "staff user's role or scope changes; reconnect with a valid token.",
  content: { 'text/event-stream': { schema: { type: 'string' } } },
};
