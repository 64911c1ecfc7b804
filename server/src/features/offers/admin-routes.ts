import type { Database } from '../../db/database.js';
import { parseListQuery } from '../../http/list-query.js';
import { BRANCH_ADMINS } from '../../auth/staff-permissions.js';
import { staffRoute } from '../../auth/route-access.js';
import { IdParams, ListQuery } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { CreateOfferRequest, OFFER_LIST, UpdateOfferRequest } from './schemas.js';
import { createOffer, listOffers, updateOffer } from './service.js';
import { Offer, OfferList } from '../catalog/schemas.js';
import { auditOf } from '../audit/service.js';
import { adminScope, page } from '../../auth/staff-access.js';

/** Rate offers of the branch's exchanges. Offers read the same as in the partner API, so the shapes are shared. */
export function offerRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    const route = staffRoute('admin');

    app.post(
      '/offers',
      route({
        roles: BRANCH_ADMINS,
        schema: {
          operationId: 'createAdminOffer',
          summary: 'Create an offer (emits offer.updated)',
          body: CreateOfferRequest,
          response: { 201: Offer },
        },
      }),
      async (request, reply) =>
        reply.code(201).send(await createOffer(db, auditOf(request), adminScope(request.staff), request.body)),
    );

    app.get(
      '/offers',
      route({
        roles: BRANCH_ADMINS,
        schema: {
          operationId: 'listAdminOffers',
          summary: 'List offers, active or not',
          querystring: ListQuery,
          response: { 200: OfferList },
        },
      }),
      async (request) => {
        // The partner listing's filters, sorts and query, over the caller's back office (branch-wide, or every branch).
        const params = parseListQuery(request.query, OFFER_LIST);
        return page(await listOffers(db, adminScope(request.staff), params), params);
      },
    );

    app.patch(
      '/offers/:id',
      route({
        roles: BRANCH_ADMINS,
        errors: [404],
        schema: {
          operationId: 'updateAdminOffer',
          summary: "Change an offer's rate, limits or state (emits offer.updated)",
          params: IdParams,
          body: UpdateOfferRequest,
          response: { 200: Offer },
        },
      }),
      async (request) => updateOffer(db, auditOf(request), adminScope(request.staff), request.params.id, request.body),
    );
  };
}
