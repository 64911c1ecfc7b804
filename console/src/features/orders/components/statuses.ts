import type { OrderStatus } from '../../../lib/api/types';

export const STATUSES: OrderStatus[] = [
  'ORDERINIT',
  'CLIENTPAYMENTWAIT',
  'EXCHANGEPAYMENTWAIT',
  'CASHOUT',
  'SUCCESS',
  'CANCEL',
];
export const OPEN_STATUSES: OrderStatus[] = ['ORDERINIT', 'CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'CASHOUT'];

export const STATUS_LABEL: Record<OrderStatus, string> = {
  ORDERINIT: 'New',
  CLIENTPAYMENTWAIT: 'Waiting for client payment',
  EXCHANGEPAYMENTWAIT: 'Waiting for exchange payment',
  CASHOUT: 'Cash out',
  SUCCESS: 'Done',
  CANCEL: 'Cancelled',
};

export const STATUS_COLOR: Record<OrderStatus, string> = {
  ORDERINIT: 'blue',
  CLIENTPAYMENTWAIT: 'yellow',
  EXCHANGEPAYMENTWAIT: 'orange',
  CASHOUT: 'grape',
  SUCCESS: 'teal',
  CANCEL: 'gray',
};

/** The button that moves an order to a status says what the counter did. */
export const MOVE_LABEL: Partial<Record<OrderStatus, string>> = {
  CLIENTPAYMENTWAIT: 'Await client payment',
  EXCHANGEPAYMENTWAIT: 'Client paid',
  CASHOUT: 'Cash out',
  SUCCESS: 'Complete',
};
