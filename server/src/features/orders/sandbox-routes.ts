import type { Database } from '../../db/database.js';
import { notFound } from '../../http/errors.js';
import { partnerRoute } from '../../auth/route-access.js';
import { IdParams } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import * as present from './presenters.js';
import { Order, StatusChangeRequest } from './schemas.js';
import { findOrder, keyActor, moveOrder } from './service.js';

/**
 * The sandbox (docs/integration.md): in a sandbox branch a partner's secret key moves the orders it placed along the
 * staff transition table, so it can test its whole webhook handling without asking staff. The move is the
 * staff move's (history, events, row lock); everywhere else the route answers 404.
 */
export function sandboxRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    app.post(
      '/sandbox/orders/:id/status',
      partnerRoute('sandbox')({
        permission: 'orders:write',
        errors: [404, 422],
        schema: {
          operationId: 'moveSandboxOrder',
          params: IdParams,
          body: StatusChangeRequest,
          summary:
            'Move an own order of a sandbox branch to another status (the staff transition table); 404 outside a sandbox',
          response: { 200: Order },
        },
      }),
      async (request) => {
        const key = request.apiKey;
        const { status, comment } = request.body;
        const move = {
          id: request.params.id,
          to: status,
          by: 'sandbox' as const,
          actor: keyActor(key),
          comment,
          sandboxKeyId: key.keyId,
        };
        await db.transaction().execute((tx) => moveOrder(tx, key, move));
        const row = await findOrder(db, key, request.params.id);
        if (!row) throw notFound('order');
        return present.order(row);
      },
    );
  };
}
