/** The query keys of branches. */
export const branchKeys = {
  all: ['branches'] as const,
  list: () => branchKeys.all,
};
