import type { Database } from '../../db/database.js';
import { parseListQuery, type ListSpec } from '../../http/list-query.js';
import { BRANCH_ADMINS } from '../../auth/staff-permissions.js';
import { staffRoute } from '../../auth/route-access.js';
import { IdParams, ListQuery } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import {
  CreatePaymentMethodRequest,
  PaymentMethod,
  PaymentMethodList,
  PAYMENT_METHOD_KINDS,
  UpdatePaymentMethodRequest,
} from './schemas.js';
import { createPaymentMethod, listPaymentMethods, updatePaymentMethod } from './service.js';
import { auditOf } from '../audit/service.js';
import { adminScope, page } from '../../auth/staff-access.js';

const LIST: ListSpec = {
  filters: {
    kind: { type: 'enum', values: PAYMENT_METHOD_KINDS },
    exchangeId: { type: 'integer' },
    currencyId: { type: 'integer' },
    isActive: { type: 'boolean' },
    branchId: { type: 'integer' },
  },
  sorts: ['id', 'name', 'kind', 'exchangeId', 'currencyId', 'createdAt', 'updatedAt'],
};

/** Payment methods a branch offers its clients (orders refer to them as paymentMethodSource / paymentMethodDest). */
export function paymentMethodRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    const route = staffRoute('admin');

    app.post(
      '/payment-methods',
      route({
        roles: BRANCH_ADMINS,
        schema: {
          operationId: 'createPaymentMethod',
          summary: 'Create a payment method',
          body: CreatePaymentMethodRequest,
          response: { 201: PaymentMethod },
        },
      }),
      async (request, reply) =>
        reply.code(201).send(await createPaymentMethod(db, auditOf(request), adminScope(request.staff), request.body)),
    );

    app.get(
      '/payment-methods',
      route({
        roles: BRANCH_ADMINS,
        schema: {
          operationId: 'listAdminPaymentMethods',
          summary: 'List payment methods',
          querystring: ListQuery,
          response: { 200: PaymentMethodList },
        },
      }),
      async (request) => {
        const params = parseListQuery(request.query, LIST);
        return page(await listPaymentMethods(db, adminScope(request.staff), params), params);
      },
    );

    app.patch(
      '/payment-methods/:id',
      route({
        roles: BRANCH_ADMINS,
        errors: [404],
        schema: {
          operationId: 'updatePaymentMethod',
          summary: 'Rename, re-kind, activate or deactivate a payment method',
          params: IdParams,
          body: UpdatePaymentMethodRequest,
          response: { 200: PaymentMethod },
        },
      }),
      async (request) =>
        updatePaymentMethod(db, auditOf(request), adminScope(request.staff), request.params.id, request.body),
    );
  };
}
