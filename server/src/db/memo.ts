import { isDeepStrictEqual } from 'node:util';
import { CompiledQuery, type Compilable } from 'kysely';
import type { Executor } from './database.js';

const SLOT = Symbol('slot');
interface Slot {
  readonly [SLOT]: string;
}
type Slots = (string | { value: unknown })[];

const VERIFY_FIRST = 3;

/**
 * Compiles a hot query once per shape and afterwards only fills in its parameters: building and compiling
 * the Kysely tree was a fifth of the CPU of a catalogue request. The query is built with placeholder objects
 * for every other parameter; null and undefined parameters are part of the shape (they change the SQL). A
 * parameter that a builder turned into something else than a placeholder would be frozen into the cached
 * query, so the first executions of every shape are also built for real and compared, and a mismatch fails
 * loudly.
 */
export function memoQuery<P extends Record<string, unknown>, Row>(build: (db: Executor, p: P) => Compilable<Row>) {
  const shapes = new Map<string, { sql: string; slots: Slots; verified: number }>();
  return async (db: Executor, params: P): Promise<Row[]> => {
    // null and undefined are apart: Kysely writes a null value but leaves an undefined column out of an insert.
    const key = Object.keys(params)
      .map((k) => (params[k] === null ? `${k}:null` : params[k] === undefined ? `${k}:undefined` : k))
      .join(',');
    let shape = shapes.get(key);
    if (!shape) {
      const placeholders = Object.fromEntries(
        Object.entries(params).map(([k, v]) => [k, v === null || v === undefined ? v : { [SLOT]: k }]),
      );
      const compiled = build(db, placeholders as P).compile();
      const slots = compiled.parameters.map((v) =>
        typeof v === 'object' && v !== null && SLOT in v ? (v as Slot)[SLOT] : { value: v },
      );
      shape = { sql: compiled.sql, slots, verified: 0 };
      shapes.set(key, shape);
    }
    const parameters = shape.slots.map((s) => (typeof s === 'string' ? params[s] : s.value));
    if (shape.verified < VERIFY_FIRST) {
      const real = build(db, params).compile();
      if (real.sql !== shape.sql || !isDeepStrictEqual([...real.parameters], parameters)) {
        throw new Error(`memoQuery: a parameter of this query is not passed through its placeholders:\n${real.sql}`);
      }
      shape.verified++;
    }
    const result = await db.executeQuery<Row>(CompiledQuery.raw(shape.sql, parameters));
    return result.rows;
  };
}
