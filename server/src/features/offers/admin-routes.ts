import type { Database } from '../../db/database.js';
import { parseListQuery } from '../../http/list-query.js';
import { BRANCH_ADMINS } from '../../auth/staff-permissions.js';
import { staffRoute } from '../../auth/route-access.js';
import { IdParams, ListQuery } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import {
  AdminOffer,
  AdminOfferList,
  CreateOfferRequest,
  OFFER_LIST,
  RateHistory,
  RateHistoryQuery,
  UpdateOfferRequest,
} from './schemas.js';
import { createOffer, listOffers, offerRateHistory, resumeOffer, updateOffer } from './service.js';
import { auditOf } from '../audit/service.js';
import { adminScope, page } from '../../auth/staff-access.js';

/**
 * Rate offers of the branch's exchanges. Offers read as in the partner API, with how their rate is made (fixed, or
 * from a rate source) and whether a safety stop suspended them (docs/rates.md).
 */
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
          response: { 201: AdminOffer },
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
          response: { 200: AdminOfferList },
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
          response: { 200: AdminOffer },
        },
      }),
      async (request) => updateOffer(db, auditOf(request), adminScope(request.staff), request.params.id, request.body),
    );

    app.post(
      '/offers/:id/resume',
      route({
        roles: BRANCH_ADMINS,
        errors: [404, 409],
        schema: {
          operationId: 'resumeAdminOffer',
          summary: 'Resume a suspended offer, re-priced from its source (emits offer.updated)',
          params: IdParams,
          response: { 200: AdminOffer },
        },
      }),
      async (request) => resumeOffer(db, auditOf(request), adminScope(request.staff), request.params.id),
    );

    app.get(
      '/offers/:id/rates',
      route({
        roles: BRANCH_ADMINS,
        errors: [404],
        schema: {
          operationId: 'listAdminOfferRates',
          summary: "An offer's applied rates over time, with their references (kept 90 days)",
          params: IdParams,
          querystring: RateHistoryQuery,
          response: { 200: RateHistory },
        },
      }),
      async (request) => offerRateHistory(db, adminScope(request.staff), request.params.id, request.query),
    );
  };
}
