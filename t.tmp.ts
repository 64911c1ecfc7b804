import { PGlite } from '@electric-sql/pglite';
const db = new PGlite();
await db.query('create table t (id int)');
const r = await db.query(`with ins as (insert into t select g from generate_series(1,3) g returning 1)
  select count(*)::int as n, (case when count(*) > 0 then pg_notify('c', '') end)::text as x from ins`);
console.log(r.rows);
const r2 = await db.query(`select $1::text[] as a, $2::int[] as b, $3::uuid[] as c`, [['a"b', null, 'x,{y}\\z'], [1, null], ['00000000-0000-4000-8000-000000000001']]);
console.log(r2.rows);
