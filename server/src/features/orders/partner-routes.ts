import type { Scope } from '../../db/scope.js';
import type { Database } from '../../db/database.js';
import { byApiKey, idempotentResponder, type IdempotencyOptions } from '../idempotency/respond.js';
import { IdempotencyHeaders } from '../idempotency/schemas.js';
import { notFound } from '../../http/errors.js';
import { parseListQuery, type ListSpec, listMeta } from '../../http/list-query.js';
import { partnerRoute } from '../../auth/route-access.js';
import { IdParams, ListQuery } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import * as present from './presenters.js';
import { CreateOrderRequest, Order, OrderList } from './schemas.js';
import { sandboxRoutes } from './sandbox-routes.js';
import { createOrder, findOrder, keyActor, listOrders, moveOrder } from './service.js';
import { ORDER_STATUSES } from './transitions.js';

export const ORDER_LIST: ListSpec = {
  filters: {
    status: { type: 'enum', values: ORDER_STATUSES },
    hashedId: { type: 'string', maxLength: 64 },
    cashboxId: { type: 'integer' },
    userId: { type: 'integer' },
    operationType: { type: 'enum', values: ['offer', 'finop'] },
    createdAt: { type: 'dateRange' },
    source: { type: 'enum', values: ['partner', 'counter'] },
  },
  sorts: ['id', 'createdAt', 'updatedAt', 'status', 'clientAmount', 'exchangeAmount'],
};

const route = partnerRoute('orders');

/** Partner orders, restricted in every query to the exchanges the key reaches (docs/decisions.md, "Orders"). */
export function orderRoutes({ db, config }: { db: Database; config: { idempotency: IdempotencyOptions } }) {
  const respond = idempotentResponder(db, config.idempotency, byApiKey);
  return async function routes(app: App) {
    const readBack = async (scope: Scope, id: number) => {
      const row = await findOrder(db, scope, id);
      if (!row) throw notFound('order');
      return present.order(row);
    };

    app.post(
      '/orders',
      route({
        permission: 'orders:write',
        errors: [422],
        schema: {
          operationId: 'createOrder',
          summary: 'Create an order (status ORDERINIT)',
          body: CreateOrderRequest,
          headers: IdempotencyHeaders,
          response: { 201: Order },
        },
      }),
      async (request, reply) =>
        respond(request, reply, 201, async (tx) =>
          present.order(await createOrder(db, tx, request.apiKey, request.body)),
        ),
    );

    app.get(
      '/orders',
      route({
        permission: 'orders:read',
        schema: {
          operationId: 'listOrders',
          summary: "Orders in the key's scope, paginated",
          querystring: ListQuery,
          response: { 200: OrderList },
        },
      }),
      async (request) => {
        const params = parseListQuery(request.query, ORDER_LIST);
        const page = await listOrders(db, request.apiKey, params);
        return { data: page.rows.map(present.order), meta: listMeta(page, params) };
      },
    );

    app.get(
      '/orders/:id',
      route({
        permission: 'orders:read',
        errors: [404],
        config: { etag: true },
        schema: { operationId: 'getOrder', summary: 'One order', params: IdParams, response: { 200: Order } },
      }),
      async (request) => readBack(request.apiKey, request.params.id),
    );

    app.post(
      '/orders/:id/cancel',
      route({
        permission: 'orders:write',
        errors: [404, 422],
        schema: {
          operationId: 'cancelOrder',
          summary: 'Cancel an order (from ORDERINIT or CLIENTPAYMENTWAIT only)',
          params: IdParams,
          response: { 200: Order },
        },
      }),
      async (request) => {
        const move = {
          id: request.params.id,
          to: 'CANCEL' as const,
          by: 'partner' as const,
          actor: keyActor(request.apiKey),
        };
        await db.transaction().execute((tx) => moveOrder(tx, request.apiKey, move));
        return readBack(request.apiKey, request.params.id);
      },
    );

    await sandboxRoutes({ db })(app);
  };
}
