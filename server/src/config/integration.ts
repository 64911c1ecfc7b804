import { Type, type Static } from 'typebox';

/**
 * The settings of the integration features (docs/integration.md), kept apart so that config/config.ts stays small;
 * loadConfig reads them with the rest of the environment.
 */
export const IntegrationEnv = {
  IDEMPOTENCY_LOCK_WAIT_MS: Type.Integer({ minimum: 0, maximum: 60000, default: 2000 }),
  QUOTE_TTL_SECONDS: Type.Integer({ minimum: 1, maximum: 3600, default: 60 }),
};

type Env = { [K in keyof typeof IntegrationEnv]: Static<(typeof IntegrationEnv)[K]> };

export interface IntegrationConfig {
  /** Idempotency-Key handling. */
  idempotency: { lockWaitMs: number };
  /** How long a firm quote (POST /partner/public/quotes) holds its figures. */
  quoteTtlSeconds: number;
}

export function integrationConfig(env: Env): IntegrationConfig {
  return {
    idempotency: { lockWaitMs: env.IDEMPOTENCY_LOCK_WAIT_MS },
    quoteTtlSeconds: env.QUOTE_TTL_SECONDS,
  };
}
