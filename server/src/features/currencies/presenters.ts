import type * as repo from './repository.js';

export function currencyView(c: repo.CurrencyRow) {
  return {
    id: c.id,
    ticker: c.code,
    name: c.name,
    kind: c.kind,
    decimals: c.decimals,
    image: c.image_id && c.image_path ? { id: c.image_id, path: c.image_path } : null,
    createdAt: c.created_at,
    updatedAt: c.updated_at,
  };
}
