/** The query keys of staff users. */
export const staffKeys = {
  all: ['staff'] as const,
  list: () => staffKeys.all,
};
