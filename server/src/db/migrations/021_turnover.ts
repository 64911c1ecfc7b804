import type { Kysely } from 'kysely';
import { runScript } from '../script.js';

/**
 * The turnover report's aggregates (docs/reports.md, "Turnover report"): what settled orders received, paid out and
 * earned, per branch, exchange, currency, staff user and time bucket, kept by the transaction that settles an order.
 *
 * - Each settled order adds to buckets of three spans: 15 minutes, an hour and a UTC day (`span` in minutes). Every time
 *   zone's day boundary falls on a quarter of an hour, so a report for any zone is a sum of whole buckets: whole UTC
 *   days inside the range, hours and quarters at its edges. Its cost is days × exchanges × currencies × staff, never
 *   the number of orders.
 * - `staff_id` 0 stands for "no staff user" (a key or the system settled a partner order): a primary key cannot hold a
 *   null. There is no foreign key: figures stay when a staff user is deleted.
 * - `orders` counts the orders with the row's currency on either side (an order has two currencies, two rows).
 * - Rows are upserted in key order, so that two orders settling at once lock shared rows in one order (no deadlock).
 * - `turnover_add` is the one rule for what an order adds (the settling move, this backfill, the benchmark's seed): the
 *   client's amount is received in currency1, the exchange amount paid out in currency2, and the income is what the
 *   office would have paid out at the order's reference rate (rounded down to currency2's decimals, as a payout is)
 *   less what it paid out. `p_sign` -1 takes an order back out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
create table turnover (
  branch_id integer not null references branches(id),
  span smallint not null check (span in (15, 60, 1440)),
  bucket timestamptz not null,
  exchange_id integer not null references exchanges(id),
  currency_id integer not null references currencies(id),
  staff_id integer not null,
  received numeric not null,
  paid_out numeric not null,
  income numeric not null,
  orders integer not null,
  primary key (branch_id, span, bucket, exchange_id, currency_id, staff_id)
);

create function turnover_add(p_sign integer, p_ids integer[], p_settled_at timestamptz[], p_movers integer[])
returns void language sql as $$
insert into turnover as t (branch_id, span, bucket, exchange_id, currency_id, staff_id, received, paid_out, income, orders)
select o.branch_id, sp.span,
  date_bin(make_interval(mins => sp.span), s.settled_at, timestamptz '2000-01-01 00:00:00+00'),
  o.cashbox_id, side.currency_id, coalesce(o.created_by_staff_id, s.mover, 0),
  p_sign * sum(side.received), p_sign * sum(side.paid_out), p_sign * sum(side.income),
  (p_sign * count(distinct o.id))::integer
from unnest(p_ids, p_settled_at, p_movers) as s(order_id, settled_at, mover)
join orders o on o.id = s.order_id
join currencies c2 on c2.id = o.currency2_id
cross join lateral (values
  (o.currency1_id, o.client_amount, 0::numeric, 0::numeric),
  (o.currency2_id, 0::numeric, o.exchange_amount,
    case
      when o.reference_rate is null or o.reference_rate <= 0 then 0::numeric
      when coalesce(o.is_reverse, false)
        then div(o.client_amount * power(10::numeric, c2.decimals), o.reference_rate) * power(10::numeric, -c2.decimals)
          - o.exchange_amount
      else trunc(o.client_amount * o.reference_rate, c2.decimals) - o.exchange_amount
    end)
) as side(currency_id, received, paid_out, income)
cross join (values (15::smallint), (60::smallint), (1440::smallint)) as sp(span)
group by 1, 2, 3, 4, 5, 6
order by 1, 2, 3, 4, 5, 6
on conflict (branch_id, span, bucket, exchange_id, currency_id, staff_id) do update set
  received = t.received + excluded.received,
  paid_out = t.paid_out + excluded.paid_out,
  income = t.income + excluded.income,
  orders = t.orders + excluded.orders
$$;

select turnover_add(1, array_agg(o.id), array_agg(coalesce(h.created_at, o.updated_at)),
  array_agg(case when h.actor_type = 'staff' then h.staff_user_id end))
from orders o
left join lateral (
  select created_at, actor_type, staff_user_id from order_status_history
  where order_id = o.id and to_status = 'SUCCESS' order by id desc limit 1
) h on true
where o.status = 'SUCCESS';
`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
drop function turnover_add(integer, integer[], timestamptz[], integer[]);
drop table turnover;
`,
  );
}
