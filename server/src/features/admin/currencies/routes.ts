import type { AppContext } from '../../../context.js';
import { badRequest, notFound } from '../../../http/errors.js';
import { parseListQuery, type ListSpec } from '../../../http/list-query.js';
import { errorResponses, IdParams, ListQuery } from '../../../http/schemas.js';
import type { App } from '../../../http/types.js';
import { uniqueViolation } from '../../../db/errors.js';
import { BRANCH_ADMINS, page, security, SUPERADMIN_ONLY } from '../common.js';
import * as repo from './repository.js';
import { AdminCurrency, AdminCurrencyList, CreateCurrencyRequest, UpdateCurrencyRequest } from './schemas.js';

const LIST: ListSpec = { filters: { kind: { type: 'enum', values: ['fiat', 'crypto'] } }, sorts: ['id', 'ticker', 'name', 'decimals', 'createdAt', 'updatedAt'] };

const view = (c: repo.CurrencyRow) => ({
  id: c.id, ticker: c.code, name: c.name, kind: c.kind, decimals: c.decimals,
  image: c.image_id && c.image_path ? { id: c.image_id, path: c.image_path } : null, createdAt: c.created_at, updatedAt: c.updated_at,
});

/** A taken ticker is a 400, found by the constraint itself so that two concurrent writes cannot both pass. */
async function uniqueTicker<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (uniqueViolation(err) === 'currencies_code_key') throw badRequest('A currency with this ticker already exists', { ticker: 'alreadyExists' });
    throw err;
  }
}

/**
 * Currencies are shared by every branch, so only a superadmin changes them. Branch admins may read them:
 * they need the ids to set up their offers.
 */
export function currencyRoutes(ctx: AppContext) {
  return async function routes(app: App) {
    const tags = ['admin'];

    app.post('/currencies', {
      config: { staffRoles: SUPERADMIN_ONLY },
      schema: { tags, summary: 'Create a currency (superadmin)', security, body: CreateCurrencyRequest, response: { 201: AdminCurrency, ...errorResponses(400, 401, 403) } },
    }, async (request, reply) => reply.code(201).send(view(await uniqueTicker(() => repo.insertCurrency(ctx.db, request.body)))));

    app.get('/currencies', {
      config: { staffRoles: BRANCH_ADMINS },
      schema: { tags, summary: 'List currencies (superadmin, admin)', security, querystring: ListQuery, response: { 200: AdminCurrencyList, ...errorResponses(400, 401, 403) } },
    }, async (request) => {
      const params = parseListQuery(request.query, LIST);
      const { rows, total } = await repo.listCurrencies(ctx.db, params);
      return page(rows.map(view), total, params);
    });

    app.patch('/currencies/:id', {
      config: { staffRoles: SUPERADMIN_ONLY },
      schema: {
        tags, summary: 'Change a currency (superadmin)', security, params: IdParams, body: UpdateCurrencyRequest,
        response: { 200: AdminCurrency, ...errorResponses(400, 401, 403, 404) },
      },
    }, async (request) => {
      const row = await uniqueTicker(() => repo.updateCurrency(ctx.db, request.params.id, request.body));
      if (!row) throw notFound('currency');
      return view(row);
    });
  };
}
