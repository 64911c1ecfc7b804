import type { Database } from '../../db/database.js';
import { errorResponses } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { formatCursor, parseCursor } from './cursor.js';
import { eventsAfter } from './service.js';
import { EVENTS_PAGE_DEFAULT, EventPage, EventsQuery } from './schemas.js';

/** The events feed: what webhooks deliver, readable by polling (docs/integration.md). */
export function eventRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    app.get('/events', {
      schema: {
        operationId: 'listEvents', tags: ['events'], summary: 'Events the key may see, oldest first: the webhook envelopes, for catching up or polling',
        security: [{ apiKey: [] }], querystring: EventsQuery, response: { 200: EventPage, ...errorResponses(400, 401, 403, 429) },
      },
    }, async (request, reply) => {
      const after = parseCursor(request.query.after);
      // The validator fills in the default; the fallback only satisfies the type of an optional property.
      const limit = request.query.limit ?? EVENTS_PAGE_DEFAULT;
      const rows = await eventsAfter(db, request.apiKey, after, limit + 1);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      const next = formatCursor(last ? { tx: last.tx, seq: last.seq } : after);
      // The stored bodies are sent as they are, so that each is byte for byte the body its webhooks were sent.
      return reply.type('application/json; charset=utf-8')
        .send(`{"data":[${page.map((r) => r.body).join(',')}],"next":${JSON.stringify(next)},"hasMore":${rows.length > page.length}}` as never);
    });
  };
}
