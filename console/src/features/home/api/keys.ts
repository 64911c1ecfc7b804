/** The query keys of the Home page's figures (GET /admin/dashboard). */
export const homeKeys = {
  all: ['dashboard'] as const,
  dashboard: (since: string) => [...homeKeys.all, since] as const,
};
