import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { saveFile } from '../../../lib/print';
import { reportKeys } from '../api/keys';
import { exportTurnover, getTurnover, type TurnoverQuery } from '../api/reports';

export function useTurnover(q: TurnoverQuery) {
  return useQuery({
    queryKey: reportKeys.turnover(q),
    queryFn: () => getTurnover(q),
    placeholderData: keepPreviousData,
  });
}

export function useExportTurnover() {
  return useMutation({
    mutationFn: exportTurnover,
    onSuccess: (csv, q) => saveFile(csv, `turnover-${q.groupBy}-${q.from}-${q.to}.csv`),
  });
}
