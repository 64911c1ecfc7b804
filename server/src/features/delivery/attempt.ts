import type { Claim } from './claim.js';
import type { Outcome } from './outcome.js';
import type { Sender } from './sender.js';
import { deliveryHeaders } from './signing.js';

/** Makes one claimed attempt: the exact body, signed for this attempt, to the webhook's URL as it is now. Never rejects. */
export function attempt(sender: Sender, c: Claim): Promise<Outcome> {
  const headers = deliveryHeaders({
    id: c.id,
    event: c.event,
    body: c.body,
    secret: c.secret,
    previousSecret: c.previousSecret,
    attempt: c.attempt,
  });
  return sender
    .send(c.url, headers, c.body)
    .catch((err: Error) => ({
      ok: false,
      startedAt: new Date(),
      durationMs: 0,
      status: null,
      body: null,
      error: err.message,
    }))
    .then((r) => ({ ...r, id: c.id, webhookId: c.webhookId, attempt: c.attempt }));
}
