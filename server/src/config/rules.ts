/** The settings the rules between settings read. */
interface Related {
  NODE_ENV: string;
  JWT_SECRET?: string;
  DATABASE_URL?: string;
  JWT_JWKS_URL?: string;
  JWT_ISSUER?: string;
  JWT_AUDIENCE?: string;
  BOOTSTRAP_ADMIN_EMAIL?: string;
  BOOTSTRAP_ADMIN_PASSWORD?: string;
}

/** What is wrong between settings each valid on its own: one message each, naming the variable. */
export function relatedSettingProblems(env: Related): string[] {
  const problems: string[] = [];
  if (env.NODE_ENV === 'production') {
    for (const k of ['JWT_SECRET', 'DATABASE_URL'] as const) if (!env[k]) problems.push(`${k}: required in production`);
  }
  // Without both, a key set shared with other applications (one identity provider) would let any token it signs in.
  for (const k of ['JWT_ISSUER', 'JWT_AUDIENCE'] as const) {
    if (env.JWT_JWKS_URL && !env[k]) problems.push(`${k}: required with JWT_JWKS_URL`);
    if (!env.JWT_JWKS_URL && env[k]) problems.push(`${k}: only used with JWT_JWKS_URL, which is not set`);
  }
  // The pattern checks the scheme only: "postgres://u@bad host/x" would fail later as a bare "Invalid URL".
  if (env.DATABASE_URL && !URL.canParse(env.DATABASE_URL))
    problems.push('DATABASE_URL: is not a valid URL (postgres://user:password@host:port/database)');
  if ((env.BOOTSTRAP_ADMIN_EMAIL === undefined) !== (env.BOOTSTRAP_ADMIN_PASSWORD === undefined)) {
    problems.push('BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD go together');
  }
  return problems;
}
