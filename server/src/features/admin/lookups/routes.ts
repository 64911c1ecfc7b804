import { Type, type Static } from 'typebox';
import type { AppContext } from '../../../context.js';
import { errorResponses, Nullable, StringEnum } from '../../../http/schemas.js';
import { ORDER_STATUSES, STAFF_MOVES } from '../../orders/transitions.js';
import type { App } from '../../../http/types.js';
import { EVERY_ROLE } from '../permissions.js';
import { security } from '../common.js';
import { lookups } from './repository.js';

const Named = { id: Type.Integer(), name: Type.String() };
const Status = StringEnum(ORDER_STATUSES);
const OrderMoves = Type.Object(Object.fromEntries(ORDER_STATUSES.map((s) => [s, Type.Array(Status)])) as Record<(typeof ORDER_STATUSES)[number], ReturnType<typeof Type.Array<typeof Status>>>, {
  description: 'The statuses staff may move an order to from each status (the transition table); an empty list is final',
});

const Lookups = Type.Object({
  branches: Type.Array(Type.Object(Named)),
  exchanges: Type.Array(Type.Object({ ...Named, branchId: Type.Integer(), isActive: Type.Boolean() })),
  currencies: Type.Array(Type.Object({ ...Named, code: Type.String(), decimals: Type.Integer(), isActive: Type.Boolean() })),
  paymentMethods: Type.Array(Type.Object({ ...Named, branchId: Type.Integer(), exchangeId: Nullable(Type.Integer()), kind: Type.String(), isActive: Type.Boolean() })),
  orderMoves: OrderMoves,
});

const orderMoves = Object.fromEntries(ORDER_STATUSES.map((s) => [s, [...STAFF_MOVES[s]]])) as Static<typeof OrderMoves>;

/**
 * GET /admin/lookups: ids to names for every page of the console, for every role (operators cannot list exchanges),
 * and the transition table, so that a page offers exactly the moves the service allows.
 */
export function lookupRoutes(ctx: AppContext) {
  return async function routes(app: App) {
    app.get('/lookups', {
      config: { staffRoles: EVERY_ROLE },
      schema: {
        operationId: 'getLookups', tags: ['admin'], summary: 'Names of the branches, exchanges, currencies and payment methods in reach',
        security, response: { 200: Lookups, ...errorResponses(401) },
      },
    }, async (request) => ({ ...(await lookups(ctx.db, request.staff)), orderMoves }));
  };
}
