import { Dec, normalize, ROUND_DOWN } from '../pricing/decimal.js';
import type { ScheduleRow } from '../exchanges/service.js';

/** Database rows → response shapes. Decimal strings are handed to the serializer, which writes JSON numbers. */
export function publicCurrency(c: {
  id: number;
  name: string;
  code: string;
  image_id?: string | null;
  image_path?: string | null;
  imageId?: string | null;
  imagePath?: string | null;
}) {
  const imageId = c.image_id ?? c.imageId ?? null;
  const imagePath = c.image_path ?? c.imagePath ?? null;
  return {
    id: c.id,
    name: c.name,
    ticker: c.code,
    image: imageId && imagePath ? { id: imageId, path: imagePath } : null,
  };
}

export function quotedCurrency(c: {
  id: number;
  name: string;
  code: string;
  imageId: string | null;
  imagePath: string | null;
}) {
  return publicCurrency(c);
}

type QuotedCurrency = Parameters<typeof quotedCurrency>[0];

/** The estimate's answer: the quote (service's Quote), its currencies as the public list shows them. */
export function estimate(q: {
  exchangeId: number;
  offerId: number;
  rate: string;
  isReverse: boolean;
  sourceAmount: string;
  destAmount: string;
  sourceCurrency: QuotedCurrency;
  destCurrency: QuotedCurrency;
}) {
  return {
    sourceAmount: q.sourceAmount,
    destAmount: q.destAmount,
    rate: q.rate,
    isReverse: q.isReverse,
    sourceCurrency: quotedCurrency(q.sourceCurrency),
    destCurrency: quotedCurrency(q.destCurrency),
    exchangeId: q.exchangeId,
    offerId: q.offerId,
  };
}

export function publicExchange(e: {
  id: number;
  name: string;
  is_active: boolean;
  address: string;
  phone_number: string;
  chat_url: string;
  latitude: string | null;
  longitude: string | null;
  timezone: string;
  schedule: ScheduleRow[];
}) {
  return {
    id: e.id,
    name: e.name,
    exchangeActive: e.is_active,
    contacts: {
      address: e.address,
      phoneNumber: e.phone_number,
      chat: e.chat_url,
      location:
        e.latitude !== null && e.longitude !== null
          ? { latitude: Number(e.latitude), longitude: Number(e.longitude) }
          : null,
    },
    schedule: e.schedule,
    timezone: e.timezone,
  };
}

export function exchange(e: {
  id: number;
  name: string;
  address: string;
  city: string;
  is_active: boolean;
  timezone: string;
  created_at: Date;
  updated_at: Date;
  schedule: ScheduleRow[];
}) {
  return {
    id: e.id,
    name: e.name,
    address: e.address,
    city: e.city,
    isActive: e.is_active,
    schedule: { timezone: e.timezone, days: e.schedule },
    createdAt: e.created_at,
    updatedAt: e.updated_at,
  };
}

/**
 * What one order can receive at an exchange, in the destination currency (docs/cash.md): the most one order pays
 * out (maxAmount × rate), or the exchange's available cash when that is smaller and the currency is tracked, rounded
 * down to the currency's decimals. Partners see this, never the balance.
 */
export function reserve(maxAmount: string, rate: string, decimals: number, available: string | undefined): string {
  const payout = new Dec(maxAmount).times(rate).toDecimalPlaces(decimals, ROUND_DOWN);
  if (available === undefined) return normalize(payout);
  const cash = Dec.max(new Dec(available).toDecimalPlaces(decimals, ROUND_DOWN), 0);
  return normalize(Dec.min(payout, cash));
}

export function offer(o: {
  id: number;
  exchange_id: number;
  rate: string;
  min_amount: string;
  max_amount: string;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
  c1_id: number;
  c1_code: string;
  c1_name: string;
  c2_id: number;
  c2_code: string;
  c2_name: string;
}) {
  return {
    id: o.id,
    currency1: { id: o.c1_id, code: o.c1_code, name: o.c1_name },
    currency2: { id: o.c2_id, code: o.c2_code, name: o.c2_name },
    rate: o.rate,
    minAmount: o.min_amount,
    maxAmount: o.max_amount,
    isActive: o.is_active,
    exchange: { id: o.exchange_id },
    createdAt: o.created_at,
    updatedAt: o.updated_at,
  };
}

/** An offer as partners list it: with its reserve. */
export function partnerOffer(o: Parameters<typeof offer>[0] & { c2_decimals: number; available: string | undefined }) {
  const body = offer(o);
  return {
    id: body.id,
    currency1: body.currency1,
    currency2: body.currency2,
    rate: body.rate,
    minAmount: body.minAmount,
    maxAmount: body.maxAmount,
    reserve: reserve(o.max_amount, o.rate, o.c2_decimals, o.available),
    isActive: body.isActive,
    exchange: body.exchange,
    createdAt: body.createdAt,
    updatedAt: body.updatedAt,
  };
}

export function rate(r: {
  id: number;
  exchange_id: number;
  c1_id: number;
  c1_code: string;
  c2_id: number;
  c2_code: string;
  rate: string;
  min_amount: string;
  max_amount: string;
  c2_decimals: number;
  available: string | undefined;
  updated_at: Date;
}) {
  return {
    offerId: r.id,
    exchangeId: r.exchange_id,
    sourceCurrency: { id: r.c1_id, ticker: r.c1_code },
    destCurrency: { id: r.c2_id, ticker: r.c2_code },
    rate: r.rate,
    minAmount: r.min_amount,
    maxAmount: r.max_amount,
    reserve: reserve(r.max_amount, r.rate, r.c2_decimals, r.available),
    updatedAt: r.updated_at,
  };
}
