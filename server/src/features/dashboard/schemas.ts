import { Type } from 'typebox';
import { DateTime, Money, Nullable, StringEnum } from '../../http/schemas.js';
import { TodayTurnover } from '../reports/schemas.js';
import { AdminWebhook } from '../webhooks/schemas.js';

const STATUSES = ['ORDERINIT', 'CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'CASHOUT', 'SUCCESS', 'CANCEL'] as const;
const Count = Type.Integer({ minimum: 0 });

export const DashboardQuery = Type.Object({
  since: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'Start of "today" in the viewer\'s time zone; midnight UTC when left out',
    }),
  ),
});

const WaitingOrder = Type.Object({
  id: Type.Integer(),
  hashedId: Type.String(),
  status: StringEnum(STATUSES),
  exchangeId: Type.Integer(),
  clientAmount: Money,
  currency1: Type.String({ description: 'Code of the currency the client gives' }),
  exchangeAmount: Money,
  currency2: Type.String({ description: 'Code of the currency the client receives' }),
  createdAt: DateTime,
  updatedAt: DateTime,
});

export const Dashboard = Type.Object({
  since: DateTime,
  orders: Nullable(
    Type.Object({
      byStatus: Type.Object(
        Object.fromEntries(STATUSES.map((s) => [s, Count])) as Record<(typeof STATUSES)[number], typeof Count>,
        { description: 'Orders created since `since`, by their status now' },
      ),
      total: Count,
      waitingLongest: Type.Array(WaitingOrder, {
        description: 'Open orders that have gone longest without a change, up to 10',
      }),
    }),
    { description: 'null without the orders:read permission' },
  ),
  turnover: Nullable(TodayTurnover, {
    description:
      "Orders settled in the 24 hours from `since`, per currency (the turnover report's figures); null without orders:read",
  }),
  webhooksInTrouble: Nullable(Type.Array(AdminWebhook), {
    description: 'Deactivated or failing webhooks, up to 10; null without webhooks:manage',
  }),
});
