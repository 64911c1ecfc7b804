import type { AppContext } from '../../../context.js';
import type { Database } from '../../../db/database.js';
import { pageQuery, type ListParams } from '../../../db/list.js';
import { inScope, scopeValues, type Scope } from '../../../db/scope.js';
import { fieldNotFound } from '../../../http/errors.js';
import { parseListQuery, type ListSpec } from '../../../http/list-query.js';
import { errorResponses, ListQuery } from '../../../http/schemas.js';
import type { App } from '../../../http/types.js';
import { adminScope, BRANCH_ADMINS, page, security, targetBranch } from '../common.js';
import { CreatePaymentMethodRequest, PaymentMethod, PaymentMethodList, PAYMENT_METHOD_KINDS, type CreatePaymentMethodInput, type PaymentMethodKind } from './schemas.js';

const COLUMNS: Record<string, string> = {
  id: 'p.id', name: 'p.name', kind: 'p.kind', exchangeId: 'p.exchange_id', currencyId: 'p.currency_id', isActive: 'p.is_active',
  branchId: 'p.branch_id', createdAt: 'p.created_at', updatedAt: 'p.updated_at',
};
const LIST: ListSpec = {
  filters: { kind: { type: 'enum', values: PAYMENT_METHOD_KINDS }, exchangeId: { type: 'integer' }, currencyId: { type: 'integer' }, isActive: { type: 'boolean' }, branchId: { type: 'integer' } },
  sorts: ['id', 'name', 'kind', 'exchangeId', 'currencyId', 'createdAt', 'updatedAt'],
};

const view = (p: { id: number; branch_id: number; name: string; kind: string; exchange_id: number | null; currency_id: number | null; is_active: boolean; created_at: Date; updated_at: Date }) => ({
  id: p.id, branchId: p.branch_id, name: p.name, kind: p.kind, exchangeId: p.exchange_id, currencyId: p.currency_id,
  isActive: p.is_active, createdAt: p.created_at, updatedAt: p.updated_at,
});

async function create(db: Database, scope: Scope, input: CreatePaymentMethodInput) {
  const branchId = await targetBranch(db, scope, input.branchId);
  if (input.exchangeId !== undefined) {
    const exchange = await db.selectFrom('exchanges').select('id').where('id', '=', input.exchangeId).where('branch_id', '=', branchId).executeTakeFirst();
    if (!exchange) throw fieldNotFound('exchangeId');
  }
  if (input.currencyId !== undefined) {
    const currency = await db.selectFrom('currencies').select('id').where('id', '=', input.currencyId).executeTakeFirst();
    if (!currency) throw fieldNotFound('currencyId');
  }
  return db.insertInto('payment_methods').values({
    branch_id: branchId, name: input.name.trim(), kind: (input.kind ?? 'cash') as PaymentMethodKind,
    exchange_id: input.exchangeId ?? null, currency_id: input.currencyId ?? null, is_active: input.isActive ?? true, updated_at: new Date(),
  }).returningAll().executeTakeFirstOrThrow();
}

const methodsPage = pageQuery((db, scope: Scope) => inScope(db.selectFrom('payment_methods as p'), scope, { branch: 'p.branch_id' }), COLUMNS, (qb) => qb.selectAll('p'));

function list(db: Database, scope: Scope, params: ListParams) {
  return methodsPage(db, scopeValues(scope), params);
}

/** Payment methods a branch offers its clients (orders refer to them as paymentMethodSource / paymentMethodDest). */
export function paymentMethodRoutes(ctx: AppContext) {
  return async function routes(app: App) {
    const config = { staffRoles: BRANCH_ADMINS };
    const tags = ['admin'];

    app.post('/payment-methods', {
      config,
      schema: { tags, summary: 'Create a payment method', security, body: CreatePaymentMethodRequest, response: { 201: PaymentMethod, ...errorResponses(400, 401, 403) } },
    }, async (request, reply) => reply.code(201).send(view(await create(ctx.db, adminScope(request.staff), request.body))));

    app.get('/payment-methods', {
      config,
      schema: { tags, summary: 'List payment methods', security, querystring: ListQuery, response: { 200: PaymentMethodList, ...errorResponses(400, 401, 403) } },
    }, async (request) => {
      const params = parseListQuery(request.query, LIST);
      const { rows, total } = await list(ctx.db, adminScope(request.staff), params);
      return page(rows.map(view), total, params);
    });
  };
}
