import type { Database } from '../../db/database.js';
import { parseListQuery } from '../../http/list-query.js';
import { errorResponses, IdParams, ListQuery } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { CreateOfferRequest, OFFER_LIST, UpdateOfferRequest } from './schemas.js';
import { createOffer, listOffers, updateOffer } from './service.js';
import { Offer, OfferList } from '../catalog/schemas.js';
import { auditOf } from '../audit/service.js';
import { adminScope, BRANCH_ADMINS, page, security } from '../../auth/staff-access.js';

/** Rate offers of the branch's exchanges. Offers read the same as in the partner API, so the shapes are shared. */
export function offerRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    const config = { staffRoles: BRANCH_ADMINS };
    const tags = ['admin'];

    app.post('/offers', {
      config,
      schema: { operationId: 'createAdminOffer', tags, summary: 'Create an offer (emits offer.updated)', security, body: CreateOfferRequest, response: { 201: Offer, ...errorResponses(400, 401, 403) } },
    }, async (request, reply) => reply.code(201).send(await createOffer(db, auditOf(request), adminScope(request.staff), request.body)));

    app.get('/offers', {
      config,
      schema: { operationId: 'listAdminOffers', tags, summary: 'List offers, active or not', security, querystring: ListQuery, response: { 200: OfferList, ...errorResponses(400, 401, 403) } },
    }, async (request) => {
      // The partner listing's filters, sorts and query, over the caller's back office (branch-wide, or every branch).
      const params = parseListQuery(request.query, OFFER_LIST);
      return page(await listOffers(db, adminScope(request.staff), params), params);
    });

    app.patch('/offers/:id', {
      config,
      schema: {
        operationId: 'updateAdminOffer', tags, summary: 'Change an offer\'s rate, limits or state (emits offer.updated)', security, params: IdParams, body: UpdateOfferRequest,
        response: { 200: Offer, ...errorResponses(400, 401, 403, 404) },
      },
    }, async (request) => updateOffer(db, auditOf(request), adminScope(request.staff), request.params.id, request.body));
  };
}
