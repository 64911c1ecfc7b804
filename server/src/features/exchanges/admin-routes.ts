import type { Database } from '../../db/database.js';
import { parseListQuery, type ListSpec } from '../../http/list-query.js';
import { errorResponses, IdParams, ListQuery } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { AdminExchange, AdminExchangeList, CreateExchangeRequest, UpdateExchangeRequest } from './schemas.js';
import { createExchange, getExchange, listExchanges, updateExchange } from './service.js';
import { auditOf } from '../audit/service.js';
import { adminScope, BRANCH_ADMINS, page, security } from '../../auth/staff-access.js';

const LIST: ListSpec = {
  filters: { isActive: { type: 'boolean' }, branchId: { type: 'integer' } },
  sorts: ['id', 'branchId', 'name', 'city', 'createdAt', 'updatedAt'],
};

/** Exchange offices of the caller's branch (every branch for a superadmin): contacts, location, weekly hours. */
export function exchangeRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    const config = { staffRoles: BRANCH_ADMINS };
    const tags = ['admin'];

    app.post('/exchanges', {
      config,
      schema: { operationId: 'createAdminExchange', tags, summary: 'Create an exchange office', security, body: CreateExchangeRequest, response: { 201: AdminExchange, ...errorResponses(400, 401, 403) } },
    }, async (request, reply) => reply.code(201).send(await createExchange(db, auditOf(request), adminScope(request.staff), request.body)));

    app.get('/exchanges', {
      config,
      schema: { operationId: 'listAdminExchanges', tags, summary: 'List exchange offices', security, querystring: ListQuery, response: { 200: AdminExchangeList, ...errorResponses(400, 401, 403) } },
    }, async (request) => {
      const params = parseListQuery(request.query, LIST);
      return page(await listExchanges(db, adminScope(request.staff), params), params);
    });

    app.get('/exchanges/:id', {
      config,
      schema: { operationId: 'getAdminExchange', tags, summary: 'One exchange office', security, params: IdParams, response: { 200: AdminExchange, ...errorResponses(401, 403, 404) } },
    }, async (request) => getExchange(db, adminScope(request.staff), request.params.id));

    app.patch('/exchanges/:id', {
      config,
      schema: {
        operationId: 'updateAdminExchange', tags, summary: 'Change an exchange office; a given schedule replaces the whole week', security, params: IdParams, body: UpdateExchangeRequest,
        response: { 200: AdminExchange, ...errorResponses(400, 401, 403, 404) },
      },
    }, async (request) => updateExchange(db, auditOf(request), adminScope(request.staff), request.params.id, request.body));
  };
}
