import { Anchor } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { AuditEntry, Delivery } from '../lib/api/types';
import { useMe } from '../lib/auth/me';
import { NAV } from '../lib/nav';

/** What a log line is about: an audit entry's entity, or the order or offer a webhook delivery carried. */
export interface Subject {
  type: AuditEntry['entityType'];
  id: string | number;
  exchangeId?: number | null;
}

/**
 * Where the console shows each kind of subject: its own page where it has one, else the page listing it. An offer
 * has no page of its own; it is a row of its exchange's offers, so without the exchange there is nowhere to go.
 */
const PATHS: Record<Subject['type'], (s: Subject, id: string) => string | null> = {
  order: (_, id) => `/orders/${id}`,
  exchange: (_, id) => `/exchanges/${id}`,
  webhook: (_, id) => `/webhooks/${id}`,
  offer: (s) => (s.exchangeId ? `/offers?exchange=${s.exchangeId}` : null),
  staff: () => '/staff',
  apiKey: () => '/api-keys',
  paymentMethod: () => '/payment-methods',
  client: () => '/clients',
  currency: () => '/currencies',
  branch: () => '/branches',
  rateSource: () => '/rate-sources',
  // A cash position is `<exchange id>:<currency id>`; until the console has a cash page, its exchange's page.
  cash: (_, id) => `/exchanges/${decodeURIComponent(id).split(':')[0]}`,
};

export function subjectPath(s: Subject): string | null {
  return PATHS[s.type](s, encodeURIComponent(String(s.id)));
}

/** A positive integer id found at `path` inside a JSON value the API typed as unknown (a payload, a before/after). */
function idAt(value: unknown, ...path: string[]): number | null {
  let at = value;
  for (const key of path) at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[key] : undefined;
  return typeof at === 'number' && Number.isInteger(at) && at > 0 ? at : null;
}

/** An audited offer names its exchange in the offer as recorded: after a change, or before it when nothing came after. */
export function auditSubject(e: AuditEntry): Subject {
  return {
    type: e.entityType,
    id: e.entityId,
    exchangeId: e.entityType === 'offer' ? (idAt(e.after, 'exchange', 'id') ?? idAt(e.before, 'exchange', 'id')) : null,
  };
}

/**
 * A delivery's subjectId is an order's or an offer's id, by event. Only its payload (the detail, not the log's rows)
 * says an offer's exchange, so a row of the log cannot link an offer.
 */
export function deliverySubject(d: Pick<Delivery, 'event' | 'subjectId'> & { payload?: unknown }): Subject | null {
  if (d.subjectId === null) return null;
  const offer = d.event.startsWith('offer.');
  return {
    type: offer ? 'offer' : 'order',
    id: d.subjectId,
    exchangeId: offer ? idAt(d.payload, 'data', 'exchangeId') : null,
  };
}

/**
 * The subject's words (by default "order #12") as an ordinary link, so a middle click opens a new tab; plain words
 * when the console has no page for it or the user's role does not open that page: "No access" only wastes a click.
 */
export function SubjectLink({ subject, children }: { subject: Subject | null; children?: ReactNode }) {
  const me = useMe().data;
  const words = children ?? (subject ? `${subject.type} #${subject.id}` : null);
  const to = subject && subjectPath(subject);
  const page = to
    ? NAV.find((n) => n.to !== '/' && (to === n.to || to.startsWith(`${n.to}/`) || to.startsWith(`${n.to}?`)))
    : undefined;
  if (!subject || !to || (me && page && !page.visible(me))) return <>{words}</>;
  return (
    <Anchor component={Link} to={to} inherit data-subject={subject.type}>
      {words}
    </Anchor>
  );
}
