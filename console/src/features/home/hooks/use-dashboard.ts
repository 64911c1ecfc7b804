import { useQuery } from '@tanstack/react-query';
import { getDashboard } from '../api/dashboard';
import { homeKeys } from '../api/keys';

/** Today's orders by status, the ones waiting longest, and webhooks in trouble, since `since`. */
export function useDashboard(since: string) {
  return useQuery({ queryKey: homeKeys.dashboard(since), queryFn: () => getDashboard(since), refetchInterval: 60_000 });
}
