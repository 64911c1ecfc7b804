import type { Scope } from '../../db/scope.js';
import type { Database } from '../../db/database.js';
import { idempotentResponder, type IdempotencyOptions } from '../idempotency/respond.js';
import { IdempotencyHeaders } from '../idempotency/schemas.js';
import { notFound } from '../../http/errors.js';
import { parseListQuery, type ListSpec, listMeta } from '../../http/list-query.js';
import { errorResponses, IdParams, ListQuery } from '../../http/schemas.js';
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
  },
  sorts: ['id', 'createdAt', 'updatedAt', 'status', 'clientAmount', 'exchangeAmount'],
};

const security = [{ apiKey: [] }];
const tags = ['orders'];

/** Partner orders, restricted in every query to the exchanges the key reaches (docs/decisions.md, "Orders"). */
export function orderRoutes({ db, config }: { db: Database; config: { idempotency: IdempotencyOptions } }) {
  const respond = idempotentResponder(db, config.idempotency);
  return async function routes(app: App) {
    const readBack = async (scope: Scope, id: number) => {
      const row = await findOrder(db, scope, id);
      if (!row) throw notFound('order');
      return present.order(row);
    };

    app.post('/orders', {
      config: { permission: 'orders:write' },
      schema: {
        operationId: 'createOrder', tags, summary: 'Create an order (status ORDERINIT)', security, body: CreateOrderRequest, headers: IdempotencyHeaders,
        response: { 201: Order, ...errorResponses(400, 401, 403, 422, 429) },
      },
    }, async (request, reply) => respond(request, reply, 201, async (tx) => present.order(await createOrder(db, tx, request.apiKey, request.body))));

    app.get('/orders', {
      config: { permission: 'orders:read' },
      schema: { operationId: 'listOrders', tags, summary: 'Orders in the key\'s scope, paginated', security, querystring: ListQuery, response: { 200: OrderList, ...errorResponses(400, 401, 403, 429) } },
    }, async (request) => {
      const params = parseListQuery(request.query, ORDER_LIST);
      const page = await listOrders(db, request.apiKey, params);
      return { data: page.rows.map(present.order), meta: listMeta(page, params) };
    });

    app.get('/orders/:id', {
      config: { permission: 'orders:read', etag: true },
      schema: { operationId: 'getOrder', tags, summary: 'One order', security, params: IdParams, response: { 200: Order, ...errorResponses(401, 403, 404, 429) } },
    }, async (request) => readBack(request.apiKey, request.params.id));

    app.post('/orders/:id/cancel', {
      config: { permission: 'orders:write' },
      schema: {
        operationId: 'cancelOrder', tags, summary: 'Cancel an order (from ORDERINIT or CLIENTPAYMENTWAIT only)', security, params: IdParams,
        response: { 200: Order, ...errorResponses(401, 403, 404, 422, 429) },
      },
    }, async (request) => {
      const move = { id: request.params.id, to: 'CANCEL' as const, by: 'partner' as const, actor: keyActor(request.apiKey) };
      await db.transaction().execute((tx) => moveOrder(tx, request.apiKey, move));
      return readBack(request.apiKey, request.params.id);
    });

    await sandboxRoutes({ db })(app);
  };
}
