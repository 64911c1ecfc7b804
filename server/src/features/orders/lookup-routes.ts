import { Type } from 'typebox';
import type { Database } from '../../db/database.js';
import { notFound } from '../../http/errors.js';
import { staffRoute } from '../../auth/route-access.js';
import { IdParams } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { present as presentClient } from '../clients/service.js';
import { Client } from '../clients/schemas.js';
import * as present from './presenters.js';
import { ListedAdminOrder } from './schemas.js';
import { findOrderClient, searchOrders } from './lookup-repository.js';

const route = staffRoute('admin');

const SearchQuery = Type.Object({
  q: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'An order id (42 or #42), a hashed id, or part of a client\'s name, email or phone' }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25 })),
});

const SearchResult = Type.Object({ data: Type.Array(ListedAdminOrder) });

/** The counter's lookups: find an order by what the client says, and see who the client is. */
export function orderLookupRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    app.get('/orders/search', route({
      permission: 'orders:read',
      schema: {
        operationId: 'searchOrders', summary: 'Orders in scope by id, hashed id, or (with clients:read) client name, email or phone; newest first',
        querystring: SearchQuery, response: { 200: SearchResult },
      },
    }), async (request) => {
      // Who the clients are is for those who may read clients: others find orders by id only, and see no client.
      const withClients = request.staff.permissions.has('clients:read');
      const rows = await searchOrders(db, request.staff, request.query.q, request.query.limit ?? 25, withClients);
      return {
        data: rows.map((r) => Object.assign(present.adminOrder(r), {
          client: !withClients || r.user_id === null || r.client_email === null ? null
            : present.clientSummary({ id: r.user_id, first_name: r.first_name!, last_name: r.last_name!, email: r.client_email, phone: r.client_phone ?? '' }),
        })),
      };
    });

    app.get('/orders/:id/client', route({
      permission: ['orders:read', 'clients:read'], errors: [404],
      schema: {
        operationId: 'getOrderClient', summary: 'The client of an order (404 when the order has none or is out of scope)',
        params: IdParams, response: { 200: Client },
      },
    }), async (request) => {
      const client = await findOrderClient(db, request.staff, request.params.id);
      if (!client) throw notFound('client');
      return presentClient(client);
    });
  };
}
