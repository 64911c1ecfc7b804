import type { Database } from '../../db/database.js';
import { staffRoute } from '../../auth/route-access.js';
import type { App } from '../../http/types.js';
import { amountFromJson } from '../pricing/decimal.js';
import * as present from './presenters.js';
import { EstimateRequest, EstimateResult } from './schemas.js';
import { quote } from './service.js';

/**
 * The counter's live estimate: the partner estimate's body and answer, for a staff user at the exchanges of its
 * scope (an operator its own), priced by the same quote as POST /partner/public/estimate, so the console never
 * prices an order itself. Read from the database in the staff user's scope, not from a branch's snapshot: a
 * superadmin has no branch of its own.
 */
export function catalogAdminRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    app.post(
      '/estimate',
      staffRoute('admin')({
        permission: 'orders:write',
        errors: [404],
        schema: {
          operationId: 'getAdminEstimate',
          summary:
            'Exact estimate for a currency pair at an exchange of the staff user, as a counter order would be priced',
          body: EstimateRequest,
          response: { 200: EstimateResult },
        },
      }),
      async (request) => {
        const body = request.body;
        const q = await quote(db, request.staff, {
          exchangeId: body.exchangeId,
          sourceCurrencyId: body.sourceCurrencyId,
          destCurrencyId: body.destCurrencyId,
          amount: amountFromJson(body.amount),
          direction: body.direction ?? 'source',
        });
        return present.estimate(q);
      },
    );
  };
}
