import type { Target } from './load.js';
import type { BenchData } from './seed.js';

export interface Scenario {
  name: string;
  read: boolean;
  /** Writes data that must be removed before the next process is measured. */
  writes?: boolean;
  api: Target;
  baseline: Target;
}

/** The endpoints measured, each with its request to the service and to baseline (b). */
export function benchScenarios(d: BenchData): Scenario[] {
  const auth = (key: string) => ({ authorization: `Bearer ${key}` });
  const estimate = JSON.stringify({ exchangeId: d.exchangeId, sourceCurrencyId: d.currencies.USD, destCurrencyId: d.currencies.EUR, amount: 250.5 });
  const order = JSON.stringify({
    cashbox: { id: d.exchangeId }, currency1: { id: d.currencies.USD }, currency2: { id: d.currencies.EUR },
    operationType: 'offer', clientAmount: 250.5, comment: 'bench',
  });
  return [
    { name: 'GET /partner/public/exchanges', read: true, api: { method: 'GET', path: '/api/v1/partner/public/exchanges', headers: auth(d.keys.public) }, baseline: { method: 'GET', path: '/api/v1/partner/public/exchanges' } },
    { name: 'GET /partner/offers?limit=20', read: true, api: { method: 'GET', path: '/api/v1/partner/offers?limit=20', headers: auth(d.keys.branch) }, baseline: { method: 'GET', path: '/api/v1/partner/offers' } },
    { name: 'POST /partner/public/estimate', read: true, api: { method: 'POST', path: '/api/v1/partner/public/estimate', headers: auth(d.keys.public), body: estimate }, baseline: { method: 'POST', path: '/api/v1/partner/public/estimate', body: estimate } },
    { name: 'GET /partner/orders?limit=20', read: true, api: { method: 'GET', path: '/api/v1/partner/orders?limit=20', headers: auth(d.keys.branch) }, baseline: { method: 'GET', path: '/api/v1/partner/orders' } },
    { name: 'POST /partner/orders', read: false, writes: true, api: { method: 'POST', path: '/api/v1/partner/orders', headers: auth(d.keys.branch), body: order }, baseline: { method: 'POST', path: '/api/v1/partner/orders', body: order } },
  ];
}
