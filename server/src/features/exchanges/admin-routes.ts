import type { Database } from '../../db/database.js';
import { parseListQuery, type ListSpec } from '../../http/list-query.js';
import { BRANCH_ADMINS } from '../../auth/staff-permissions.js';
import { staffRoute } from '../../auth/route-access.js';
import { IdParams, ListQuery } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { AdminExchange, AdminExchangeList, CreateExchangeRequest, UpdateExchangeRequest } from './schemas.js';
import { createExchange, getExchange, listExchanges, updateExchange } from './service.js';
import { auditOf } from '../audit/service.js';
import { adminScope, page } from '../../auth/staff-access.js';

const LIST: ListSpec = {
  filters: { isActive: { type: 'boolean' }, branchId: { type: 'integer' } },
  sorts: ['id', 'branchId', 'name', 'city', 'createdAt', 'updatedAt'],
};

/** Exchange offices of the caller's branch (every branch for a superadmin): contacts, location, weekly hours. */
export function exchangeRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    const route = staffRoute('admin');

    app.post(
      '/exchanges',
      route({
        roles: BRANCH_ADMINS,
        schema: {
          operationId: 'createAdminExchange',
          summary: 'Create an exchange office',
          body: CreateExchangeRequest,
          response: { 201: AdminExchange },
        },
      }),
      async (request, reply) =>
        reply.code(201).send(await createExchange(db, auditOf(request), adminScope(request.staff), request.body)),
    );

    app.get(
      '/exchanges',
      route({
        roles: BRANCH_ADMINS,
        schema: {
          operationId: 'listAdminExchanges',
          summary: 'List exchange offices',
          querystring: ListQuery,
          response: { 200: AdminExchangeList },
        },
      }),
      async (request) => {
        const params = parseListQuery(request.query, LIST);
        return page(await listExchanges(db, adminScope(request.staff), params), params);
      },
    );

    app.get(
      '/exchanges/:id',
      route({
        roles: BRANCH_ADMINS,
        errors: [404],
        schema: {
          operationId: 'getAdminExchange',
          summary: 'One exchange office',
          params: IdParams,
          response: { 200: AdminExchange },
        },
      }),
      async (request) => getExchange(db, adminScope(request.staff), request.params.id),
    );

    app.patch(
      '/exchanges/:id',
      route({
        roles: BRANCH_ADMINS,
        errors: [404],
        schema: {
          operationId: 'updateAdminExchange',
          summary: 'Change an exchange office; a given schedule replaces the whole week',
          params: IdParams,
          body: UpdateExchangeRequest,
          response: { 200: AdminExchange },
        },
      }),
      async (request) =>
        updateExchange(db, auditOf(request), adminScope(request.staff), request.params.id, request.body),
    );
  };
}
