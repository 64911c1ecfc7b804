import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { publicSchedule } from '../exchanges/repository.js';

// A branch's whole catalogue, read at once for its snapshot (snapshot-build.ts).

export function exchangesOf(db: Executor, branchId: number) {
  return db
    .selectFrom('exchanges as e')
    .select([
      'e.id',
      'e.name',
      'e.is_active',
      'e.address',
      'e.city',
      'e.phone_number',
      'e.chat_url',
      'e.latitude',
      'e.longitude',
      'e.timezone',
      'e.created_at',
      'e.updated_at',
    ])
    .select(publicSchedule(sql.ref('e.id')).as('schedule'))
    .where('e.branch_id', '=', branchId)
    .orderBy('e.id')
    .execute();
}

/**
 * The offers partners may see (none suspended). The key columns of the offers list as text, as db/keyset.ts writes them into a cursor, and the timestamps
 * also as fixed-width UTC digits to order by (a Date drops the microseconds that order two offers apart).
 */
export function offersOf(db: Executor, branchId: number) {
  return (
    db
      .selectFrom('offers as o')
      .innerJoin('exchanges as e', 'e.id', 'o.exchange_id')
      .select([
        'o.id',
        'o.exchange_id',
        'o.currency1_id',
        'o.currency2_id',
        'o.rate',
        'o.min_amount',
        'o.max_amount',
        'o.is_active',
        'o.reference_rate',
        'o.created_at',
        'o.updated_at',
      ])
      .select([
        sql<string>`o.created_at::text`.as('created_text'),
        sql<string>`o.updated_at::text`.as('updated_text'),
        sql<string>`to_char(o.created_at at time zone 'UTC', 'YYYYMMDDHH24MISSUS')`.as('created_order'),
        sql<string>`to_char(o.updated_at at time zone 'UTC', 'YYYYMMDDHH24MISSUS')`.as('updated_order'),
      ])
      .where('e.branch_id', '=', branchId)
      // A suspended offer is not offered to partners at all (docs/rates.md, "Safety stops").
      .where('o.pricing_state', '=', 'active')
      .orderBy('o.id')
      .execute()
  );
}

export function currenciesOf(db: Executor, branchId: number) {
  const named = db
    .selectFrom('offers as o')
    .innerJoin('exchanges as e', 'e.id', 'o.exchange_id')
    .where('e.branch_id', '=', branchId)
    .select(sql<number>`unnest(array[o.currency1_id, o.currency2_id])`.as('currency_id'));
  return db
    .selectFrom('currencies as c')
    .select(['c.id', 'c.name', 'c.code', 'c.decimals', 'c.is_active', 'c.image_id', 'c.image_path'])
    .where('c.id', 'in', named)
    .orderBy('c.id')
    .execute();
}
