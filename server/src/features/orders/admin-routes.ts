import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/database.js';
import { notFound } from '../../http/errors.js';
import { parseListQuery, listMeta } from '../../http/list-query.js';
import { errorResponses, IdParams, ListQuery } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { requirePermission } from '../../auth/staff-permissions.js';
import * as present from './presenters.js';
import { listHistory } from './history-repository.js';
import { clientsByIds } from './lookup-repository.js';
import * as repo from './repository.js';
import { ORDER_LIST } from './partner-routes.js';
import { AdminOrderList, OrderDetail, StatusChangeRequest } from './schemas.js';
import { auditOf } from '../audit/service.js';
import { moveOrder } from './service.js';

const security = [{ staffJwt: [] }];
const tags = ['admin'];
const staffRoles = ['superadmin', 'admin', 'operator'] as const;

/** Back-office orders (decisions section 3): an operator of the order's exchange, an admin of its branch, a superadmin. */
export function orderAdminRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    const detail = async (request: FastifyRequest, id: number) => {
      const row = await repo.findOrder(db, request.staff, id);
      if (!row) throw notFound('order');
      return present.orderDetail(row, await listHistory(db, request.staff, id));
    };

    app.get('/orders', {
      config: { staffRoles }, preHandler: requirePermission('orders:read'),
      schema: { operationId: 'listAdminOrders', tags, summary: 'Orders in the staff user\'s scope, paginated', security, querystring: ListQuery, response: { 200: AdminOrderList, ...errorResponses(400, 401, 403) } },
    }, async (request) => {
      const params = parseListQuery(request.query, ORDER_LIST);
      const page = await repo.listOrders(db, request.staff, params);
      // Who the clients are is for those who may read clients, as in the search.
      const clients = request.staff.permissions.has('clients:read')
        ? await clientsByIds(db, page.rows.flatMap((o) => (o.user_id === null ? [] : [o.user_id]))) : null;
      return { data: page.rows.map((o) => present.listedAdminOrder(o, clients)), meta: listMeta(page, params) };
    });

    app.get('/orders/:id', {
      config: { staffRoles }, preHandler: requirePermission('orders:read'),
      schema: { operationId: 'getAdminOrder', tags, summary: 'One order with its status history', security, params: IdParams, response: { 200: OrderDetail, ...errorResponses(401, 403, 404) } },
    }, async (request) => detail(request, request.params.id));

    app.post('/orders/:id/status', {
      config: { staffRoles }, preHandler: requirePermission('orders:write'),
      schema: {
        operationId: 'changeAdminOrderStatus', tags, summary: 'Move an order to another status', security, params: IdParams, body: StatusChangeRequest,
        response: { 200: OrderDetail, ...errorResponses(400, 401, 403, 404, 422) },
      },
    }, async (request) => {
      const { status, comment } = request.body;
      const move = { id: request.params.id, to: status, by: 'staff' as const, actor: { type: 'staff' as const, staffUserId: request.staff.staffUserId }, comment };
      await db.transaction().execute((tx) => moveOrder(tx, request.staff, move, auditOf(request)));
      return detail(request, request.params.id);
    });
  };
}
