import type * as repo from './repository.js';

export function exchangeView(e: repo.ExchangeRow) {
  return {
    id: e.id,
    branchId: e.branch_id,
    name: e.name,
    address: e.address,
    city: e.city,
    contacts: { phoneNumber: e.phone_number, chat: e.chat_url },
    location:
      e.latitude !== null && e.longitude !== null
        ? { latitude: Number(e.latitude), longitude: Number(e.longitude) }
        : null,
    timezone: e.timezone,
    schedule: e.schedule,
    isActive: e.is_active,
    paymentWindowSeconds: e.payment_window_seconds,
    createdAt: e.created_at,
    updatedAt: e.updated_at,
  };
}
