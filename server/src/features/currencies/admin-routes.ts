import type { Database } from '../../db/database.js';
import { parseListQuery, type ListSpec } from '../../http/list-query.js';
import { BRANCH_ADMINS, SUPERADMIN_ONLY } from '../../auth/staff-permissions.js';
import { staffRoute } from '../../auth/route-access.js';
import { IdParams, ListQuery } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { AdminCurrency, AdminCurrencyList, CreateCurrencyRequest, UpdateCurrencyRequest } from './schemas.js';
import { createCurrency, listCurrencies, updateCurrency } from './service.js';
import { auditOf } from '../audit/service.js';
import { page } from '../../auth/staff-access.js';

const LIST: ListSpec = {
  filters: { kind: { type: 'enum', values: ['fiat', 'crypto'] } },
  sorts: ['id', 'ticker', 'name', 'decimals', 'createdAt', 'updatedAt'],
};

/**
 * Currencies are shared by every branch, so only a superadmin changes them. Branch admins may read them:
 * they need the ids to set up their offers.
 */
export function currencyRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    const route = staffRoute('admin');

    app.post(
      '/currencies',
      route({
        roles: SUPERADMIN_ONLY,
        schema: {
          operationId: 'createCurrency',
          summary: 'Create a currency (superadmin)',
          body: CreateCurrencyRequest,
          response: { 201: AdminCurrency },
        },
      }),
      async (request, reply) => reply.code(201).send(await createCurrency(db, auditOf(request), request.body)),
    );

    app.get(
      '/currencies',
      route({
        roles: BRANCH_ADMINS,
        schema: {
          operationId: 'listAdminCurrencies',
          summary: 'List currencies (superadmin, admin)',
          querystring: ListQuery,
          response: { 200: AdminCurrencyList },
        },
      }),
      async (request) => {
        const params = parseListQuery(request.query, LIST);
        return page(await listCurrencies(db, params), params);
      },
    );

    app.patch(
      '/currencies/:id',
      route({
        roles: SUPERADMIN_ONLY,
        errors: [404],
        schema: {
          operationId: 'updateCurrency',
          summary: 'Change a currency (superadmin)',
          params: IdParams,
          body: UpdateCurrencyRequest,
          response: { 200: AdminCurrency },
        },
      }),
      async (request) => updateCurrency(db, auditOf(request), request.params.id, request.body),
    );
  };
}
