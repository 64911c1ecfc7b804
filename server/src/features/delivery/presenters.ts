import type { DeliveryStatus, WebhookEvent } from '../../db/schema.js';

interface DeliveryRow {
  id: string;
  event: string;
  status: string;
  attempts: number;
  last_response_status: number | null;
  last_error: string | null;
  next_attempt_at: Date;
  delivered_at: Date | null;
  created_at: Date;
  updated_at: Date;
  subject_id: number | null;
}

export function delivery(row: DeliveryRow) {
  return {
    id: row.id,
    event: row.event as WebhookEvent,
    subjectId: row.subject_id,
    status: row.status as DeliveryStatus,
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
  attempt_number: number;
  started_at: Date | string;
  duration_ms: number;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
}

export function deliveryDetail(row: DeliveryRow & { body: string }, attempts: AttemptRow[]) {
  return Object.assign(delivery(row), {
    payload: JSON.parse(row.body) as Record<string, unknown>,
    attemptLog: attempts.map((a) => ({
      attempt: a.attempt_number,
      startedAt: a.started_at,
      durationMs: a.duration_ms,
      responseStatus: a.response_status,
      responseBody: a.response_body,
      error: a.error,
    })),
  });
}
