import { sql, type Kysely } from 'kysely';

/**
 * Runs a multi-statement SQL script one statement at a time: PGlite's extended protocol (like pg's with
 * parameters) takes a single statement per query. Statements are split on a semicolon that ends a line.
 */
export async function runScript(db: Kysely<unknown>, script: string): Promise<void> {
  const statements = script
    .split(/;\s*\n/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0 && !/^(--[^\n]*\n?)+$/.test(s));
  for (const statement of statements) await sql.raw(statement).execute(db);
}
