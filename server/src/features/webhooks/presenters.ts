import type { Webhook } from '../../db/schema.js';

export const SECRET_NOTE =
  'Store this secret securely: it is shown only once and is used to verify the X-Webhook-Signature header ' +
  '(HMAC-SHA256 of the raw body, keyed with the UTF-8 bytes of secretKey). Standard Webhooks libraries take base64(secretKey) as their secret.';

export function webhook(row: Webhook) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    isActive: row.is_active,
    failCount: row.fail_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function webhookWithSecret(row: Webhook) {
  return { ...webhook(row), secretKey: row.secret_key, note: SECRET_NOTE };
}

export function rotatedWebhook(row: Webhook) {
  return {
    ...webhook(row),
    secretKey: row.secret_key,
    previousSecretExpiresAt: row.previous_secret_expires_at,
    note: SECRET_NOTE,
  };
}

export function adminWebhook(row: Webhook) {
  return {
    ...webhook(row),
    branchId: row.branch_id,
    staffUserId: row.staff_user_id,
    deactivatedAt: row.deactivated_at,
  };
}

/** A listed webhook with its owner's login (`emails` by staff user id). */
export function listedAdminWebhook(row: Webhook, emails: ReadonlyMap<number, string>) {
  return Object.assign(adminWebhook(row), {
    staffEmail: row.staff_user_id === null ? null : (emails.get(row.staff_user_id) ?? null),
  });
}
