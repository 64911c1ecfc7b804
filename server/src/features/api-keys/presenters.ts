import type { ApiKeyView } from './repository.js';

export function apiKeyView(k: ApiKeyView) {
  return {
    id: k.id,
    name: k.name,
    type: k.type,
    keyPrefix: k.key_prefix,
    branchId: k.branch_id,
    isActive: k.is_active,
    lastUsedAt: k.last_used_at,
    expiresAt: k.expires_at,
    replacedBy: k.replaced_by,
    allowedOrigins: k.allowed_origins,
    createdAt: k.created_at,
    updatedAt: k.updated_at,
  };
}
