import type { Database } from '../../db/database.js';
import { parseListQuery, type ListSpec } from '../../http/list-query.js';
import { EVERY_ROLE } from '../../auth/staff-permissions.js';
import { staffRoute } from '../../auth/route-access.js';
import { IdParams, ListQuery } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { page } from '../../auth/staff-access.js';
import { auditOf } from '../audit/service.js';
import {
  CashMovementList,
  CashParams,
  CashPosition,
  CashPositionList,
  CreateMovementRequest,
  MOVEMENT_KINDS,
  MovementCreated,
  TransferCreated,
  TransferRequest,
  UpdatePositionRequest,
} from './schemas.js';
import { listMovements, listPositions, recordMovement, setLowWatermark, transfer } from './service.js';

const LIST: ListSpec = {
  filters: {
    kind: { type: 'enum', values: MOVEMENT_KINDS },
    orderId: { type: 'integer' },
    staffId: { type: 'integer' },
    createdAt: { type: 'dateRange' },
  },
  sorts: ['id', 'createdAt'],
};

/**
 * Cash positions (docs/cash.md): an admin of the exchange's branch, a superadmin, or an operator of the exchange
 * reads them; writing takes cash:write, which admins hold and operators are granted. The staff user's scope
 * (request.staff) is its branch and, for an operator, its exchanges: another's is 404.
 */
export function cashRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    const route = staffRoute('admin');

    app.get(
      '/exchanges/:id/cash',
      route({
        roles: EVERY_ROLE,
        errors: [404],
        schema: {
          operationId: 'listAdminCashPositions',
          summary: "An exchange's cash positions: balance, held by open orders, available",
          params: IdParams,
          response: { 200: CashPositionList },
        },
      }),
      async (request) => ({ data: await listPositions(db, request.staff, request.params.id) }),
    );

    app.post(
      '/exchanges/:id/cash/:currencyId/movements',
      route({
        permission: 'cash:write',
        errors: [400, 404],
        schema: {
          operationId: 'createAdminCashMovement',
          summary: 'Record a deposit, a withdrawal or a count of cash; the first movement starts tracking the currency',
          params: CashParams,
          body: CreateMovementRequest,
          response: { 201: MovementCreated },
        },
      }),
      async (request, reply) =>
        reply
          .code(201)
          .send(
            await recordMovement(
              db,
              auditOf(request),
              request.staff,
              request.params.id,
              request.params.currencyId,
              request.body,
            ),
          ),
    );

    app.get(
      '/exchanges/:id/cash/:currencyId/movements',
      route({
        roles: EVERY_ROLE,
        errors: [400, 404],
        schema: {
          operationId: 'listAdminCashMovements',
          summary: "A position's ledger, paginated",
          params: CashParams,
          querystring: ListQuery,
          response: { 200: CashMovementList },
        },
      }),
      async (request) => {
        const params = parseListQuery(request.query, LIST);
        return page(
          await listMovements(db, request.staff, request.params.id, request.params.currencyId, params),
          params,
        );
      },
    );

    app.patch(
      '/exchanges/:id/cash/:currencyId',
      route({
        permission: 'cash:write',
        errors: [400, 404],
        schema: {
          operationId: 'updateAdminCashPosition',
          summary: "Set a position's low watermark",
          params: CashParams,
          body: UpdatePositionRequest,
          response: { 200: CashPosition },
        },
      }),
      async (request) =>
        setLowWatermark(
          db,
          auditOf(request),
          request.staff,
          request.params.id,
          request.params.currencyId,
          request.body.lowWatermark,
        ),
    );

    app.post(
      '/cash/transfers',
      route({
        permission: 'cash:write',
        errors: [400, 404],
        schema: {
          operationId: 'createAdminCashTransfer',
          summary: 'Move cash between two exchanges of one branch',
          body: TransferRequest,
          response: { 201: TransferCreated },
        },
      }),
      async (request, reply) => reply.code(201).send(await transfer(db, auditOf(request), request.staff, request.body)),
    );
  };
}
