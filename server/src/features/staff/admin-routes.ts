import { parseListQuery, type ListSpec } from '../../http/list-query.js';
import { BRANCH_ADMINS } from '../../auth/staff-permissions.js';
import { staffRoute } from '../../auth/route-access.js';
import { IdParams, ListQuery } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { CreateStaffRequest, StaffList, StaffUser, UpdateStaffRequest } from './schemas.js';
import { createStaffUser, getStaffUser, listStaffUsers, updateStaffUser, type StaffServices } from './service.js';
import { auditOf } from '../audit/service.js';
import { actorOf, page } from '../../auth/staff-access.js';

const LIST: ListSpec = {
  filters: {
    role: { type: 'enum', values: ['superadmin', 'admin', 'operator'] },
    isActive: { type: 'boolean' },
    branchId: { type: 'integer' },
  },
  sorts: ['id', 'email', 'role', 'branchId', 'createdAt', 'updatedAt'],
};

/**
 * Staff users: a superadmin manages everyone; an admin the admins and operators of its own branch (superadmins
 * and other branches are 404 to it). Changes apply to the user's tokens and personal keys on the next request.
 */
export function staffRoutes(svc: StaffServices) {
  return async function routes(app: App) {
    const route = staffRoute('admin');

    app.post(
      '/staff',
      route({
        roles: BRANCH_ADMINS,
        schema: {
          operationId: 'createStaff',
          summary: 'Create a staff user',
          body: CreateStaffRequest,
          response: { 201: StaffUser },
        },
      }),
      async (request, reply) =>
        reply.code(201).send(await createStaffUser(svc, actorOf(request.staff), request.body, auditOf(request))),
    );

    app.get(
      '/staff',
      route({
        roles: BRANCH_ADMINS,
        schema: {
          operationId: 'listStaff',
          summary: 'List staff users',
          querystring: ListQuery,
          response: { 200: StaffList },
        },
      }),
      async (request) => {
        const params = parseListQuery(request.query, LIST);
        return page(await listStaffUsers(svc.db, actorOf(request.staff), params), params);
      },
    );

    app.get(
      '/staff/:id',
      route({
        roles: BRANCH_ADMINS,
        errors: [404],
        schema: { operationId: 'getStaff', summary: 'One staff user', params: IdParams, response: { 200: StaffUser } },
      }),
      async (request) => getStaffUser(svc.db, actorOf(request.staff), request.params.id),
    );

    app.patch(
      '/staff/:id',
      route({
        roles: BRANCH_ADMINS,
        errors: [404, 422],
        schema: {
          operationId: 'updateStaff',
          summary: "Change a staff user's role, branch, exchanges, permissions, state or password",
          params: IdParams,
          body: UpdateStaffRequest,
          response: { 200: StaffUser },
        },
      }),
      async (request) =>
        updateStaffUser(svc, actorOf(request.staff), request.params.id, request.body, auditOf(request)),
    );
  };
}
