import type { Database } from '../../db/database.js';
import { partnerRoute } from '../../auth/route-access.js';
import type { App } from '../../http/types.js';
import { formatCursor, parseCursor } from './cursor.js';
import { eventsAfter } from './service.js';
import { EVENTS_PAGE_DEFAULT, EventPage, EventsQuery } from './schemas.js';

/** The events feed: what webhooks deliver, readable by polling (docs/integration.md). */
export function eventRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    // Any secret key: which events it sees follows its permissions, in the query (repository.ts).
    app.get(
      '/events',
      partnerRoute('events')({
        keys: 'secret',
        schema: {
          operationId: 'listEvents',
          summary: 'Events the key may see, oldest first: the webhook envelopes, for catching up or polling',
          querystring: EventsQuery,
          response: { 200: EventPage },
        },
      }),
      async (request, reply) => {
        const after = parseCursor(request.query.after);
        // The validator fills in the default; the fallback only satisfies the type of an optional property.
        const limit = request.query.limit ?? EVENTS_PAGE_DEFAULT;
        const rows = await eventsAfter(db, request.apiKey, after, limit + 1);
        const page = rows.slice(0, limit);
        const last = page.at(-1);
        const next = formatCursor(last ? { tx: last.tx, seq: last.seq } : after);
        // The stored bodies are sent as they are, so that each is byte for byte the body its webhooks were sent.
        return reply
          .type('application/json; charset=utf-8')
          .send(
            `{"data":[${page.map((r) => r.body).join(',')}],"next":${JSON.stringify(next)},"hasMore":${rows.length > page.length}}` as never,
          );
      },
    );
  };
}
