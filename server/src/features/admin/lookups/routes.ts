import { Type } from 'typebox';
import type { AppContext } from '../../../context.js';
import { errorResponses, Nullable } from '../../../http/schemas.js';
import type { App } from '../../../http/types.js';
import { EVERY_ROLE } from '../permissions.js';
import { security } from '../common.js';
import { lookups } from './repository.js';

const Named = { id: Type.Integer(), name: Type.String() };

const Lookups = Type.Object({
  branches: Type.Array(Type.Object(Named)),
  exchanges: Type.Array(Type.Object({ ...Named, branchId: Type.Integer(), isActive: Type.Boolean() })),
  currencies: Type.Array(Type.Object({ ...Named, code: Type.String(), decimals: Type.Integer(), isActive: Type.Boolean() })),
  paymentMethods: Type.Array(Type.Object({ ...Named, branchId: Type.Integer(), exchangeId: Nullable(Type.Integer()), kind: Type.String(), isActive: Type.Boolean() })),
});

/** GET /admin/lookups: ids to names for every page of the console, for every role (operators cannot list exchanges). */
export function lookupRoutes(ctx: AppContext) {
  return async function routes(app: App) {
    app.get('/lookups', {
      config: { staffRoles: EVERY_ROLE },
      schema: {
        operationId: 'getLookups', tags: ['admin'], summary: 'Names of the branches, exchanges, currencies and payment methods in reach',
        security, response: { 200: Lookups, ...errorResponses(401) },
      },
    }, async (request) => lookups(ctx.db, request.staff));
  };
}
