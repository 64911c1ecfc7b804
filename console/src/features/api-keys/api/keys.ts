import type { BranchKeyFilter } from './api-keys';

/** The query keys of API keys: the user's own, and a branch's as filtered. */
export const apiKeyKeys = {
  all: ['api-keys'] as const,
  mine: () => [...apiKeyKeys.all, 'mine'] as const,
  branch: (filter: BranchKeyFilter) => [...apiKeyKeys.all, 'branch', filter] as const,
};
