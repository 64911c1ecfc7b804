import { Type, type Static } from 'typebox';

/** Limits per owner that stop abuse without touching real use (docs/decisions.md, "Limits per owner"). */
export const OwnerLimitsEnv = {
  WEBHOOKS_PER_OWNER: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 20 }),
  PERSONAL_KEYS_PER_STAFF: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 50 }),
};

type Env = { [K in keyof typeof OwnerLimitsEnv]: Static<(typeof OwnerLimitsEnv)[K]> };

export interface OwnerLimitsConfig {
  ownerLimits: { webhooksPerOwner: number; personalKeysPerStaff: number };
}

export function ownerLimitsConfig(env: Env): OwnerLimitsConfig {
  return {
    ownerLimits: { webhooksPerOwner: env.WEBHOOKS_PER_OWNER, personalKeysPerStaff: env.PERSONAL_KEYS_PER_STAFF },
  };
}
