import { Type, type Static } from 'typebox';
import { branchScope } from '../../auth/principal.js';
import type { Database } from '../../db/database.js';
import type { ListParams } from '../../db/list.js';
import type { Scope } from '../../db/scope.js';
import { staffRoute } from '../../auth/route-access.js';
import { Nullable, StringEnum } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { listBranches } from '../branches/service.js';
import { listCurrencies } from '../currencies/service.js';
import { listExchanges } from '../exchanges/service.js';
import { ORDER_STATUSES, STAFF_MOVES } from '../orders/service.js';
import { listPaymentMethods } from '../payment-methods/service.js';
import { EVERY_ROLE } from '../../auth/staff-permissions.js';

const Named = { id: Type.Integer(), name: Type.String() };
const Status = StringEnum(ORDER_STATUSES);
const OrderMoves = Type.Object(
  Object.fromEntries(ORDER_STATUSES.map((s) => [s, Type.Array(Status)])) as Record<
    (typeof ORDER_STATUSES)[number],
    ReturnType<typeof Type.Array<typeof Status>>
  >,
  {
    description:
      'The statuses staff may move an order to from each status (the transition table); an empty list is final',
  },
);

const Lookups = Type.Object({
  branches: Type.Array(Type.Object(Named)),
  exchanges: Type.Array(Type.Object({ ...Named, branchId: Type.Integer(), isActive: Type.Boolean() })),
  currencies: Type.Array(Type.Object({ ...Named, code: Type.String(), decimals: Type.Integer() })),
  paymentMethods: Type.Array(
    Type.Object({
      ...Named,
      branchId: Type.Integer(),
      exchangeId: Nullable(Type.Integer()),
      kind: Type.String(),
      isActive: Type.Boolean(),
    }),
  ),
  orderMoves: OrderMoves,
});

const orderMoves = Object.fromEntries(ORDER_STATUSES.map((s) => [s, [...STAFF_MOVES[s]]])) as Static<typeof OrderMoves>;
// Reference data is small (tens of rows): one page holds all of it.
const ALL = (filter: ListParams['filter'] = {}): ListParams => ({
  skip: 0,
  limit: 1000,
  filter,
  sort: [['id', 'ASC']],
});

/**
 * What the user reaches, to name things on every page: its branch (every branch for a superadmin), the exchanges it
 * works at (an operator's own, though the catalog is readable branch-wide), all currencies, and the payment methods
 * an order of its exchanges may name.
 */
async function lookups(db: Database, scope: Scope) {
  const atMyExchange = (id: number | null) =>
    scope.exchangeIds === null || id === null || scope.exchangeIds.includes(id);
  const [branches, exchanges, currencies, methods] = await Promise.all([
    listBranches(db, ALL(scope.branchId === null ? {} : { id: scope.branchId })),
    listExchanges(db, branchScope(scope), ALL()),
    listCurrencies(db, ALL()),
    listPaymentMethods(db, branchScope(scope), ALL()),
  ]);
  return {
    branches: branches.rows.map((b) => ({ id: b.id, name: b.name })),
    exchanges: exchanges.rows
      .filter((e) => atMyExchange(e.id))
      .map((e) => ({ id: e.id, branchId: e.branchId, name: e.name, isActive: e.isActive })),
    currencies: currencies.rows.map((c) => ({ id: c.id, code: c.ticker, name: c.name, decimals: c.decimals })),
    paymentMethods: methods.rows
      .filter((p) => atMyExchange(p.exchangeId))
      .map((p) => ({
        id: p.id,
        branchId: p.branchId,
        exchangeId: p.exchangeId,
        name: p.name,
        kind: p.kind,
        isActive: p.isActive,
      })),
    orderMoves,
  };
}

/** GET /admin/lookups: ids to names for every page of the console, and the transition table, for every role. */
export function lookupRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    app.get(
      '/lookups',
      staffRoute('admin')({
        roles: EVERY_ROLE,
        schema: {
          operationId: 'getLookups',
          summary: 'Names of the branches, exchanges, currencies and payment methods in reach, and the staff moves',
          response: { 200: Lookups },
        },
      }),
      async (request) => lookups(db, request.staff),
    );
  };
}
