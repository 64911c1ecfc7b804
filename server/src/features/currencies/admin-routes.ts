import type { Database } from '../../db/database.js';
import { parseListQuery, type ListSpec } from '../../http/list-query.js';
import { errorResponses, IdParams, ListQuery } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { AdminCurrency, AdminCurrencyList, CreateCurrencyRequest, UpdateCurrencyRequest } from './schemas.js';
import { createCurrency, listCurrencies, updateCurrency } from './service.js';
import { auditOf } from '../audit/service.js';
import { BRANCH_ADMINS, page, security, SUPERADMIN_ONLY } from '../../auth/staff-access.js';

const LIST: ListSpec = { filters: { kind: { type: 'enum', values: ['fiat', 'crypto'] } }, sorts: ['id', 'ticker', 'name', 'decimals', 'createdAt', 'updatedAt'] };

/**
 * Currencies are shared by every branch, so only a superadmin changes them. Branch admins may read them:
 * they need the ids to set up their offers.
 */
export function currencyRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    const tags = ['admin'];

    app.post('/currencies', {
      config: { staffRoles: SUPERADMIN_ONLY },
      schema: { operationId: 'createCurrency', tags, summary: 'Create a currency (superadmin)', security, body: CreateCurrencyRequest, response: { 201: AdminCurrency, ...errorResponses(400, 401, 403) } },
    }, async (request, reply) => reply.code(201).send(await createCurrency(db, auditOf(request), request.body)));

    app.get('/currencies', {
      config: { staffRoles: BRANCH_ADMINS },
      schema: { operationId: 'listAdminCurrencies', tags, summary: 'List currencies (superadmin, admin)', security, querystring: ListQuery, response: { 200: AdminCurrencyList, ...errorResponses(400, 401, 403) } },
    }, async (request) => {
      const params = parseListQuery(request.query, LIST);
      return page(await listCurrencies(db, params), params);
    });

    app.patch('/currencies/:id', {
      config: { staffRoles: SUPERADMIN_ONLY },
      schema: {
        operationId: 'updateCurrency', tags, summary: 'Change a currency (superadmin)', security, params: IdParams, body: UpdateCurrencyRequest,
        response: { 200: AdminCurrency, ...errorResponses(400, 401, 403, 404) },
      },
    }, async (request) => updateCurrency(db, auditOf(request), request.params.id, request.body));
  };
}
