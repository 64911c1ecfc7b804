import { sql } from 'kysely';
import type { Executor, Tx } from '../../db/database.js';
import { scopeCondition, type Scope } from '../../db/scope.js';

export interface NewQuote {
  exchangeId: number;
  sourceCurrencyId: number;
  destCurrencyId: number;
  offerId: number;
  rate: string;
  isReverse: boolean;
  sourceAmount: string;
  destAmount: string;
  apiKeyId: string;
  referenceRate: string | null;
}

export interface QuoteRow {
  id: string;
  branch_id: number;
  exchange_id: number;
  source_currency_id: number;
  dest_currency_id: number;
  offer_id: number;
  rate: string;
  is_reverse: boolean;
  source_amount: string;
  dest_amount: string;
  reference_rate: string | null;
  expires_at: Date;
  used_at: Date | null;
  /** Whether the quote's branch and exchange are in the caller's scope (diagnosis only). */
  in_scope?: boolean;
  expired?: boolean;
}

/** Stores a quote; its branch is its exchange's, its expiry the database's clock plus `ttlSeconds`. */
export async function insertQuote(
  db: Executor,
  q: NewQuote,
  ttlSeconds: number,
): Promise<{ id: string; expires_at: Date }> {
  const { rows } = await sql<{ id: string; expires_at: Date }>`
    insert into quotes (branch_id, exchange_id, source_currency_id, dest_currency_id, offer_id, rate, is_reverse, source_amount, dest_amount, api_key_id, expires_at, reference_rate)
    select e.branch_id, e.id, ${q.sourceCurrencyId}, ${q.destCurrencyId}, ${q.offerId}, ${q.rate}::numeric, ${q.isReverse}, ${q.sourceAmount}::numeric,
      ${q.destAmount}::numeric, ${q.apiKeyId}::uuid, now() + make_interval(secs => ${ttlSeconds}), ${q.referenceRate}::numeric
    from exchanges e where e.id = ${q.exchangeId}
    returning id, expires_at`.execute(db);
  return rows[0]!;
}

/**
 * Marks an unused, unexpired quote in the caller's scope used by the order being created, in that order's
 * transaction (a failed order gives the quote back). The row lock makes two orders on one quote take turns, and
 * the second finds it used. Returns nothing when the quote cannot be used; diagnose() says why. Expiry is judged
 * by the clock, not now(): that is when the transaction began, and it may have waited since (for this quote's row,
 * or for an idempotency key) past the quote's end.
 */
export async function consumeQuote(tx: Tx, scope: Scope, id: string): Promise<QuoteRow | undefined> {
  const { rows } = await sql<QuoteRow>`
    update quotes q set used_at = now()
    where q.id = ${id}::uuid and q.used_at is null and q.expires_at > clock_timestamp()
      and ${scopeCondition(scope, { branch: 'q.branch_id', exchange: 'q.exchange_id' })}
    returning q.id, q.branch_id, q.exchange_id, q.source_currency_id, q.dest_currency_id, q.offer_id, q.rate, q.is_reverse,
      q.source_amount, q.dest_amount, q.reference_rate, q.expires_at, q.used_at`.execute(tx);
  return rows[0];
}

export async function linkOrder(tx: Tx, id: string, orderId: number): Promise<void> {
  await sql`update quotes set order_id = ${orderId} where id = ${id}::uuid`.execute(tx);
}

/**
 * Why a quote could not be used: reads it whatever its scope, only to name the reason (a foreign quote's figures
 * are never returned).
 */
export async function diagnose(
  tx: Tx,
  scope: Scope,
  id: string,
): Promise<Pick<QuoteRow, 'in_scope' | 'used_at' | 'expired'> | undefined> {
  const { rows } = await sql<QuoteRow>`
    select q.used_at, q.expires_at <= clock_timestamp() as expired,
      ${scopeCondition(scope, { branch: 'q.branch_id', exchange: 'q.exchange_id' })} as in_scope
    from quotes q where q.id = ${id}::uuid`.execute(tx);
  return rows[0];
}

/** Deletes quotes expired more than a day ago and never used (used ones stay with their order). */
export async function pruneQuotes(db: Executor, batch = 1000): Promise<number> {
  const result = await sql`
    delete from quotes where id in (
      select id from quotes where used_at is null and expires_at < now() - interval '1 day' order by expires_at limit ${batch})`.execute(
    db,
  );
  return Number(result.numAffectedRows ?? 0);
}
