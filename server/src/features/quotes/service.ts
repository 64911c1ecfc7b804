import { branchScope, type KeyPrincipal } from '../../auth/principal.js';
import type { Executor, Tx } from '../../db/database.js';
import type { Scope } from '../../db/scope.js';
import { quote, type PricingRow, type Quote, type QuoteRequest } from '../catalog/service.js';
import { Dec, normalize } from '../pricing/decimal.js';
import { QuoteError, type QuotedFor } from './errors.js';
import * as repo from './repository.js';

export interface FirmQuote {
  quote: Quote;
  id: string;
  expiresAt: Date;
}

/**
 * The estimate, held: priced as POST /public/estimate prices, but from the offer row in the database, never the
 * snapshot: a quote decides money, as an order does.
 */
export async function takeQuote(
  db: Executor,
  key: KeyPrincipal,
  req: QuoteRequest,
  ttlSeconds: number,
): Promise<FirmQuote> {
  const q = await quote(db, branchScope(key), req);
  const stored = await repo.insertQuote(
    db,
    {
      exchangeId: q.exchangeId,
      sourceCurrencyId: q.sourceCurrency.id,
      destCurrencyId: q.destCurrency.id,
      offerId: q.offerId,
      rate: q.rate,
      isReverse: q.isReverse,
      sourceAmount: q.sourceAmount,
      destAmount: q.destAmount,
      apiKeyId: key.keyId,
      referenceRate: q.referenceRate,
    },
    ttlSeconds,
  );
  return { quote: q, id: stored.id, expiresAt: stored.expires_at };
}

/** What an order on a quote is priced with: the quote's own figures, whatever the offer says now. */
export interface QuotedPrice {
  clientAmount: string;
  exchangeAmount: string;
  offerId: number;
  rate: string;
  isReverse: boolean;
  referenceRate: string | null;
}

/** What the order names, which must be what the quote was taken for. */
export type QuoteUse = QuotedFor;

/**
 * Uses a quote for an order in the order's transaction: refused (422, `errors.quoteId` naming the reason) when
 * it is unknown, of another branch or out of the key's exchange scope, expired, already used, taken for another
 * exchange or pair, or when the pair's offer (`current`, read for the order) is gone or its maxAmount no longer
 * covers the quoted amount.
 */
export async function useQuote(
  tx: Tx,
  scope: Scope,
  id: string,
  use: QuoteUse,
  current: PricingRow | undefined,
): Promise<QuotedPrice> {
  const q = await repo.consumeQuote(tx, scope, id);
  if (!q) throw await refusal(tx, scope, id);
  if (
    q.exchange_id !== use.exchangeId ||
    q.source_currency_id !== use.sourceCurrencyId ||
    q.dest_currency_id !== use.destCurrencyId
  ) {
    throw QuoteError.mismatch(
      id,
      { exchangeId: q.exchange_id, sourceCurrencyId: q.source_currency_id, destCurrencyId: q.dest_currency_id },
      use,
    );
  }
  if (!current || current.offer_id === null || !current.exchange_active) {
    throw QuoteError.offerInactive(id);
  }
  // The pair's offer now may be another one (the reverse direction, after the quoted one was deactivated): its
  // limit is in another currency, and the quoted offer is no longer in force.
  if (current.offer_id !== q.offer_id) {
    throw QuoteError.offerReplaced(id, q.offer_id);
  }
  // maxAmount is in the offer's currency1: the source for a direct quote, the destination for a reverse one.
  const quoted = q.is_reverse ? q.dest_amount : q.source_amount;
  if (new Dec(quoted).gt(new Dec(current.max_amount!))) {
    throw QuoteError.aboveOfferMaximum(normalize(current.max_amount!), normalize(quoted));
  }
  return {
    clientAmount: q.source_amount,
    exchangeAmount: q.dest_amount,
    offerId: q.offer_id,
    rate: q.rate,
    isReverse: q.is_reverse,
    referenceRate: q.reference_rate,
  };
}

export const linkOrder: typeof repo.linkOrder = (...args) => repo.linkOrder(...args);
export const pruneQuotes: typeof repo.pruneQuotes = (...args) => repo.pruneQuotes(...args);

async function refusal(tx: Tx, scope: Scope, id: string) {
  const d = await repo.diagnose(tx, scope, id);
  if (!d) return QuoteError.notFound(id);
  if (!d.in_scope) return QuoteError.foreign(id);
  if (d.used_at) return QuoteError.used(id);
  return QuoteError.expired(id);
}
