/** A claimed attempt: the delivery, its attempt number, and the webhook's URL and secrets as they are now. */
export interface Claim {
  id: string;
  webhookId: string;
  event: string;
  body: string;
  attempt: number;
  dueAt: Date;
  url: string;
  secret: string;
  /** The secret a rotation replaced, while its overlap lasts: the attempt is signed with both. */
  previousSecret: string | null;
}

export interface ClaimRequest {
  workerId: string;
  limit: number;
  leaseMs: number;
  perWebhook: number;
  /** This worker's attempts in flight, by webhook. */
  inFlight: ReadonlyMap<string, number>;
}
