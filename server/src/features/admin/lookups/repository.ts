import { branchScope, type Scope } from '../../../auth/principal.js';
import type { Executor } from '../../../db/database.js';
import { inScope } from '../../../db/scope.js';

/** The names a staff user's pages show, within its reach: an operator's exchanges, an admin's branch, everything for a superadmin. */
export async function lookups(db: Executor, scope: Scope) {
  const [branches, exchanges, currencies, paymentMethods] = await Promise.all([
    inScope(db.selectFrom('branches as b'), branchScope(scope), { branch: 'b.id' }).select(['b.id', 'b.name']).orderBy('b.id').execute(),
    inScope(db.selectFrom('exchanges as e'), scope, { branch: 'e.branch_id', exchange: 'e.id' })
      .select(['e.id', 'e.branch_id', 'e.name', 'e.is_active']).orderBy('e.id').execute(),
    db.selectFrom('currencies').select(['id', 'code', 'name', 'decimals', 'is_active']).orderBy('id').execute(),
    // Branch-wide methods and those of an exchange in reach, as an order may name them.
    inScope(db.selectFrom('payment_methods as p'), branchScope(scope), { branch: 'p.branch_id' })
      .select(['p.id', 'p.branch_id', 'p.exchange_id', 'p.name', 'p.kind', 'p.is_active'])
      .$if(scope.exchangeIds !== null, (qb) => qb.where((eb) => eb.or([eb('p.exchange_id', 'is', null), eb('p.exchange_id', 'in', [...scope.exchangeIds!, 0])])))
      .orderBy('p.id').execute(),
  ]);
  return {
    branches,
    exchanges: exchanges.map((e) => ({ id: e.id, branchId: e.branch_id, name: e.name, isActive: e.is_active })),
    currencies: currencies.map((c) => ({ id: c.id, code: c.code, name: c.name, decimals: c.decimals, isActive: c.is_active })),
    paymentMethods: paymentMethods.map((p) => ({ id: p.id, branchId: p.branch_id, exchangeId: p.exchange_id, name: p.name, kind: p.kind, isActive: p.is_active })),
  };
}
