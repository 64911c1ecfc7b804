import { Type } from 'typebox';

/** Events per page when the query gives no `limit`. */
export const EVENTS_PAGE_DEFAULT = 100;

export const EventsQuery = Type.Object({
  after: Type.Optional(
    Type.String({ maxLength: 50, description: 'The `next` of the previous page; absent for the oldest event kept' }),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 1000,
      default: EVENTS_PAGE_DEFAULT,
      description: `Events per page, 1–1000 (default ${EVENTS_PAGE_DEFAULT})`,
    }),
  ),
});

export const EventEnvelope = Type.Object(
  {
    id: Type.String({
      format: 'uuid',
      description: 'The event id: the same in every webhook delivery of it and in this feed',
    }),
    event: Type.String(),
    timestamp: Type.String({ format: 'date-time' }),
    data: Type.Object({}, { additionalProperties: true }),
  },
  { additionalProperties: true, description: 'Exactly the body a webhook delivery of the event carries' },
);

export const EventPage = Type.Object({
  data: Type.Array(EventEnvelope),
  next: Type.String({ description: 'Give it as `after` to read on; the same cursor when nothing new has happened' }),
  hasMore: Type.Boolean({ description: 'More events follow at once' }),
});
