/**
 * The name of the unique constraint a statement violated (SQLSTATE 23505), or null for any other error.
 * pg and PGlite report it alike. Checking before inserting cannot close the race; this turns the loser of
 * a race into a 400 instead of a 500.
 */
export function uniqueViolation(err: unknown): string | null {
  if (typeof err !== 'object' || err === null) return null;
  const { code, constraint } = err as { code?: unknown; constraint?: unknown };
  return code === '23505' ? String(constraint ?? '') : null;
}
