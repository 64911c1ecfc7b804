import type { Webhook } from '../../db/schema.js';

export const SECRET_NOTE = 'Store this secret securely: it is shown only once and is used to verify the X-Webhook-Signature header '
  + '(HMAC-SHA256 of the raw body, keyed with the UTF-8 bytes of secretKey). Standard Webhooks libraries take base64(secretKey) as their secret.';

export function webhook(row: Webhook) {
  return {
    id: row.id, url: row.url, events: row.events, isActive: row.is_active, failCount: row.fail_count,
    createdAt: row.created_at, updatedAt: row.updated_at,
  };
}

export function webhookWithSecret(row: Webhook) {
  return { ...webhook(row), secretKey: row.secret_key, note: SECRET_NOTE };
}

export function adminWebhook(row: Webhook) {
  return { ...webhook(row), branchId: row.branch_id, staffUserId: row.staff_user_id, deactivatedAt: row.deactivated_at };
}

interface DeliveryRow {
  id: string; event: string; status: string; attempts: number; last_response_status: number | null; last_error: string | null;
  next_attempt_at: Date; delivered_at: Date | null; created_at: Date; updated_at: Date;
}

export function delivery(row: DeliveryRow) {
  return {
    id: row.id,
    event: row.event as Webhook['events'][number],
    status: row.status as 'pending' | 'succeeded' | 'failed' | 'abandoned',
    attempts: row.attempts,
    lastResponseStatus: row.last_response_status,
    lastError: row.last_error,
    nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
    deliveredAt: row.delivered_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

interface AttemptRow {
  attempt_number: number; started_at: Date | string; duration_ms: number; response_status: number | null; response_body: string | null; error: string | null;
}

export function deliveryDetail(row: DeliveryRow & { body: string }, attempts: AttemptRow[]) {
  return Object.assign(delivery(row), {
    payload: JSON.parse(row.body) as Record<string, unknown>,
    attemptLog: attempts.map((a) => ({
      attempt: a.attempt_number, startedAt: a.started_at, durationMs: a.duration_ms,
      responseStatus: a.response_status, responseBody: a.response_body, error: a.error,
    })),
  });
}
