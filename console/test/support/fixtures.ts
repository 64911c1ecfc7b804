import type { Exchange, Lookups, Me, Offer } from '../../src/lib/api/types';

/** Rows as the API sends them, for the replies of a test. */
export const lookups: Lookups = {
  branches: [{ id: 1, name: 'Lisbon' }],
  exchanges: [
    { id: 1, name: 'Central Exchange', branchId: 1, isActive: true },
    { id: 2, name: 'Airport Desk', branchId: 1, isActive: true },
  ],
  currencies: [
    { id: 1, name: 'US Dollar', code: 'USD', decimals: 2 },
    { id: 2, name: 'Euro', code: 'EUR', decimals: 2 },
  ],
  paymentMethods: [],
  orderMoves: { ORDERINIT: [], CLIENTPAYMENTWAIT: [], EXCHANGEPAYMENTWAIT: [], CASHOUT: [], SUCCESS: [], CANCEL: [] },
};

export const admin: Me = {
  id: 2,
  email: 'admin@demo.local',
  role: 'admin',
  branchId: 1,
  exchangeIds: null,
  permissions: ['orders:read', 'orders:write', 'clients:read', 'clients:write', 'webhooks:manage'],
};

export const offer: Offer = {
  id: 7,
  currency1: { id: 1, code: 'USD', name: 'US Dollar' },
  currency2: { id: 2, code: 'EUR', name: 'Euro' },
  rate: 0.953,
  minAmount: 10,
  maxAmount: 10000,
  isActive: true,
  exchange: { id: 1 },
  createdAt: '2026-11-01T09:00:00.000Z',
  updatedAt: '2026-11-01T09:00:00.000Z',
  pricing: { mode: 'fixed' },
  pricingState: 'active',
  suspendedReason: null,
  referenceRate: null,
  referenceAt: null,
};

export const exchange: Exchange = {
  id: 1,
  branchId: 1,
  name: 'Central Exchange',
  address: 'Rua Augusta 1',
  city: 'Lisbon',
  contacts: { phoneNumber: '+351210000000', chat: '' },
  location: null,
  timezone: 'Europe/Lisbon',
  schedule: [],
  isActive: true,
  paymentWindowSeconds: 3600,
  createdAt: '2026-11-01T09:00:00.000Z',
  updatedAt: '2026-11-01T09:00:00.000Z',
};

/** The API's refusal of a body: its sentences and, by field, a code. */
export const refusal = (message: string, errors: Record<string, string>) => ({
  status: 400,
  body: { statusCode: 400, error: 'Bad Request', message, errors },
});
