import type { CompiledQuery } from 'kysely';
import type { Executor } from '../../src/db/database.js';

/** The statements `run` sends through `db`, captured on their way to the database (they still run). */
export async function statementsSent(db: Executor, run: (db: Executor) => Promise<unknown>): Promise<CompiledQuery[]> {
  const sent: CompiledQuery[] = [];
  const capturing = new Proxy(db, {
    get(target, prop) {
      if (prop === 'executeQuery')
        return (q: CompiledQuery) => {
          sent.push(q);
          return target.executeQuery(q);
        };
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  await run(capturing);
  return sent;
}
