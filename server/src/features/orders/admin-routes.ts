import type { FastifyRequest } from 'fastify';
import type { Database, Executor, Tx } from '../../db/database.js';
import { byStaffUser, idempotentResponder, type IdempotencyOptions } from '../idempotency/respond.js';
import { IdempotencyHeaders } from '../idempotency/schemas.js';
import { notFound } from '../../http/errors.js';
import { parseListQuery, listMeta } from '../../http/list-query.js';
import { staffRoute } from '../../auth/route-access.js';
import { IdParams } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { present as presentClient } from '../clients/presenters.js';
import { Client } from '../clients/schemas.js';
import * as present from './presenters.js';
import { ORDER_LIST } from './partner-routes.js';
import {
  AdminOrderListQuery,
  AdminOrderList,
  CreateOrderRequest,
  OrderDetail,
  OrderSearchQuery,
  OrderSearchResult,
  ReceiptQuery,
  ReceiptResponse,
  StatusChangeRequest,
} from './schemas.js';
import { ordersCsv } from './export-csv.js';
import { receiptCsp, receiptHtml } from './receipt.js';
import { auditOf } from '../audit/service.js';
import {
  clientsByIds,
  createOrder,
  findOrder,
  findOrderClient,
  listHistory,
  listOrders,
  moveOrder,
  receiptOf,
  searchOrders,
} from './service.js';

/** `format=csv`, or no format and an Accept header that asks for CSV. */
const wantsCsv = (format: 'json' | 'csv' | undefined, accept: string | undefined) =>
  format === 'csv' || (format === undefined && /(^|,)\s*text\/csv\s*(;|,|$)/i.test(accept ?? ''));

const route = staffRoute('admin');

/**
 * Back-office orders (docs/decisions.md, "Staff, keys and the back office"): an operator of the order's exchange, an admin of its branch,
 * a superadmin; and the counter's lookups: find an order by what the client says, and see who the client is.
 */
export function orderAdminRoutes({ db, config }: { db: Database; config: { idempotency: IdempotencyOptions } }) {
  const respond = idempotentResponder(db, config.idempotency, byStaffUser);
  return async function routes(app: App) {
    // `from`: the transaction that created the order, whose answer is stored with it before it commits.
    const detail = async (request: FastifyRequest, id: number, from: Executor = db) => {
      const row = await findOrder(from, request.staff, id);
      if (!row) throw notFound('order');
      return present.orderDetail(row, await listHistory(from, request.staff, id));
    };

    app.get(
      '/orders',
      route({
        permission: 'orders:read',
        schema: {
          operationId: 'listAdminOrders',
          summary: "Orders in the staff user's scope, paginated",
          description:
            'With `format=csv` (or `Accept: text/csv` and no `format`) the answer is instead every order matching ' +
            '`filter`, in the order of `sort`, as a streamed `text/csv` download (RFC 4180, a header row, UTF-8, times ' +
            'in UTC, exact decimals; see docs/reports.md for its columns). Declared here as JSON only, so that clients ' +
            'generated from this document keep one type for the page.',
          querystring: AdminOrderListQuery,
          response: { 200: AdminOrderList },
        },
      }),
      async (request, reply) => {
        const params = parseListQuery(request.query, ORDER_LIST);
        if (wantsCsv(request.query.format, request.headers.accept)) {
          const withClients = request.staff.permissions.has('clients:read');
          return reply
            .type('text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="orders-${new Date().toISOString().slice(0, 10)}.csv"`)
            .header('cache-control', 'no-store')
            .send(ordersCsv(db, request.staff, params, withClients));
        }
        const page = await listOrders(db, request.staff, params);
        // Who the clients are is for those who may read clients, as in the search.
        const clients = request.staff.permissions.has('clients:read')
          ? await clientsByIds(
              db,
              page.rows.flatMap((o) => (o.user_id === null ? [] : [o.user_id])),
            )
          : null;
        return { data: page.rows.map((o) => present.listedAdminOrder(o, clients)), meta: listMeta(page, params) };
      },
    );

    app.get(
      '/orders/:id',
      route({
        permission: 'orders:read',
        errors: [404],
        schema: {
          operationId: 'getAdminOrder',
          summary: 'One order with its status history',
          params: IdParams,
          response: { 200: OrderDetail },
        },
      }),
      async (request) => detail(request, request.params.id),
    );

    app.post(
      '/orders',
      route({
        permission: 'orders:write',
        errors: [422],
        schema: {
          operationId: 'createAdminOrder',
          summary: "A counter order for a walk-in client: the partner order's body and pricing, source counter",
          body: CreateOrderRequest,
          headers: IdempotencyHeaders,
          response: { 201: OrderDetail },
        },
      }),
      async (request, reply) =>
        respond(request, reply, 201, async (tx) => {
          const create = (t: Tx) => createOrder(db, t, request.staff, request.body, auditOf(request));
          if (tx) return detail(request, (await create(tx)).id, tx);
          return detail(request, (await db.transaction().execute(create)).id);
        }),
    );

    app.get(
      '/orders/:id/receipt',
      route({
        permission: 'orders:read',
        errors: [404],
        schema: {
          operationId: 'getOrderReceipt',
          summary: "An order's printable receipt (HTML), in the office's time zone",
          params: IdParams,
          querystring: ReceiptQuery,
          response: { 200: ReceiptResponse },
        },
      }),
      async (request, reply) => {
        const paper = request.query.paper ?? 'a5';
        const withClient = request.staff.permissions.has('clients:read');
        const data = await receiptOf(db, request.staff, request.params.id, withClient);
        if (!data) throw notFound('order');
        return reply
          .type('text/html; charset=utf-8')
          .header('content-security-policy', receiptCsp(paper))
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'no-store')
          .send(receiptHtml(data, paper));
      },
    );

    app.post(
      '/orders/:id/status',
      route({
        permission: 'orders:write',
        errors: [404, 422],
        schema: {
          operationId: 'changeAdminOrderStatus',
          summary: 'Move an order to another status',
          params: IdParams,
          body: StatusChangeRequest,
          response: { 200: OrderDetail },
        },
      }),
      async (request) => {
        const { status, comment } = request.body;
        const move = {
          id: request.params.id,
          to: status,
          by: 'staff' as const,
          actor: { type: 'staff' as const, staffUserId: request.staff.staffUserId },
          comment,
        };
        await db.transaction().execute((tx) => moveOrder(tx, request.staff, move, auditOf(request)));
        return detail(request, request.params.id);
      },
    );

    app.get(
      '/orders/search',
      route({
        permission: 'orders:read',
        schema: {
          operationId: 'searchOrders',
          summary: 'Orders in scope by id, hashed id, or (with clients:read) client name, email or phone; newest first',
          querystring: OrderSearchQuery,
          response: { 200: OrderSearchResult },
        },
      }),
      async (request) => {
        // Who the clients are is for those who may read clients: others find orders by id only, and see no client.
        const withClients = request.staff.permissions.has('clients:read');
        const rows = await searchOrders(db, request.staff, request.query.q, request.query.limit ?? 25, withClients);
        return {
          data: rows.map((r) =>
            Object.assign(present.adminOrder(r), {
              client:
                !withClients || r.user_id === null || r.client_email === null
                  ? null
                  : present.clientSummary({
                      id: r.user_id,
                      first_name: r.first_name!,
                      last_name: r.last_name!,
                      email: r.client_email,
                      phone: r.client_phone ?? '',
                    }),
            }),
          ),
        };
      },
    );

    app.get(
      '/orders/:id/client',
      route({
        permission: ['orders:read', 'clients:read'],
        errors: [404],
        schema: {
          operationId: 'getOrderClient',
          summary: 'The client of an order (404 when the order has none or is out of scope)',
          params: IdParams,
          response: { 200: Client },
        },
      }),
      async (request) => {
        const client = await findOrderClient(db, request.staff, request.params.id);
        if (!client) throw notFound('client');
        return presentClient(client);
      },
    );
  };
}
