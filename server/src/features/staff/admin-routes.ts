import { parseListQuery, type ListSpec } from '../../http/list-query.js';
import { errorResponses, IdParams, ListQuery } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { CreateStaffRequest, StaffList, StaffUser, UpdateStaffRequest } from './schemas.js';
import { createStaffUser, getStaffUser, listStaffUsers, updateStaffUser, type StaffServices } from './service.js';
import { auditOf } from '../audit/service.js';
import { actorOf, BRANCH_ADMINS, page, security } from '../../auth/staff-access.js';

const LIST: ListSpec = {
  filters: { role: { type: 'enum', values: ['superadmin', 'admin', 'operator'] }, isActive: { type: 'boolean' }, branchId: { type: 'integer' } },
  sorts: ['id', 'email', 'role', 'branchId', 'createdAt', 'updatedAt'],
};

/**
 * Staff users: a superadmin manages everyone; an admin the admins and operators of its own branch (superadmins
 * and other branches are 404 to it). Changes apply to the user's tokens and personal keys on the next request.
 */
export function staffRoutes(svc: StaffServices) {
  return async function routes(app: App) {
    const config = { staffRoles: BRANCH_ADMINS };
    const tags = ['admin'];

    app.post('/staff', {
      config,
      schema: { operationId: 'createStaff', tags, summary: 'Create a staff user', security, body: CreateStaffRequest, response: { 201: StaffUser, ...errorResponses(400, 401, 403) } },
    }, async (request, reply) => reply.code(201).send(await createStaffUser(svc, actorOf(request.staff), request.body, auditOf(request))));

    app.get('/staff', {
      config,
      schema: { operationId: 'listStaff', tags, summary: 'List staff users', security, querystring: ListQuery, response: { 200: StaffList, ...errorResponses(400, 401, 403) } },
    }, async (request) => {
      const params = parseListQuery(request.query, LIST);
      return page(await listStaffUsers(svc.db, actorOf(request.staff), params), params);
    });

    app.get('/staff/:id', {
      config,
      schema: { operationId: 'getStaff', tags, summary: 'One staff user', security, params: IdParams, response: { 200: StaffUser, ...errorResponses(401, 403, 404) } },
    }, async (request) => getStaffUser(svc.db, actorOf(request.staff), request.params.id));

    app.patch('/staff/:id', {
      config,
      schema: {
        operationId: 'updateStaff', tags, summary: 'Change a staff user\'s role, branch, exchanges, permissions, state or password', security, params: IdParams, body: UpdateStaffRequest,
        response: { 200: StaffUser, ...errorResponses(400, 401, 403, 404, 422) },
      },
    }, async (request) => updateStaffUser(svc, actorOf(request.staff), request.params.id, request.body, auditOf(request)));
  };
}
