import type { Database } from '../../db/database.js';
import { parseListQuery, type ListSpec } from '../../http/list-query.js';
import { errorResponses, IdParams, ListQuery } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { CreatePaymentMethodRequest, PaymentMethod, PaymentMethodList, PAYMENT_METHOD_KINDS, UpdatePaymentMethodRequest } from './schemas.js';
import { createPaymentMethod, listPaymentMethods, updatePaymentMethod } from './service.js';
import { auditOf } from '../audit/service.js';
import { adminScope, BRANCH_ADMINS, page, security } from '../../auth/staff-access.js';

const LIST: ListSpec = {
  filters: { kind: { type: 'enum', values: PAYMENT_METHOD_KINDS }, exchangeId: { type: 'integer' }, currencyId: { type: 'integer' }, isActive: { type: 'boolean' }, branchId: { type: 'integer' } },
  sorts: ['id', 'name', 'kind', 'exchangeId', 'currencyId', 'createdAt', 'updatedAt'],
};

/** Payment methods a branch offers its clients (orders refer to them as paymentMethodSource / paymentMethodDest). */
export function paymentMethodRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    const config = { staffRoles: BRANCH_ADMINS };
    const tags = ['admin'];

    app.post('/payment-methods', {
      config,
      schema: { operationId: 'createPaymentMethod', tags, summary: 'Create a payment method', security, body: CreatePaymentMethodRequest, response: { 201: PaymentMethod, ...errorResponses(400, 401, 403) } },
    }, async (request, reply) => reply.code(201).send(await createPaymentMethod(db, auditOf(request), adminScope(request.staff), request.body)));

    app.get('/payment-methods', {
      config,
      schema: { operationId: 'listAdminPaymentMethods', tags, summary: 'List payment methods', security, querystring: ListQuery, response: { 200: PaymentMethodList, ...errorResponses(400, 401, 403) } },
    }, async (request) => {
      const params = parseListQuery(request.query, LIST);
      return page(await listPaymentMethods(db, adminScope(request.staff), params), params);
    });

    app.patch('/payment-methods/:id', {
      config,
      schema: {
        operationId: 'updatePaymentMethod', tags, summary: 'Rename, re-kind, activate or deactivate a payment method', security, params: IdParams, body: UpdatePaymentMethodRequest,
        response: { 200: PaymentMethod, ...errorResponses(400, 401, 403, 404) },
      },
    }, async (request) => updatePaymentMethod(db, auditOf(request), adminScope(request.staff), request.params.id, request.body));
  };
}
