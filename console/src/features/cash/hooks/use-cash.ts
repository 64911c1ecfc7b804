import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import type { CashPosition } from '../../../lib/api/types';
import { compare } from '../../../lib/decimal';
import { useSave } from '../../../lib/forms/use-save';
import { grouped } from '../../../lib/format';
import {
  listMovements,
  listPositions,
  recordMovement,
  setLowWatermark,
  transferCash,
  type MovementBody,
  type TransferBody,
} from '../api/cash';
import { cashKeys } from '../api/keys';

export const LEDGER_PAGE = 25;

export function usePositions(exchangeId: number) {
  return useQuery({ queryKey: cashKeys.positions(exchangeId), queryFn: () => listPositions(exchangeId) });
}

export function useLedger(exchangeId: number, currencyId: number | null, page: number) {
  return useQuery({
    queryKey: cashKeys.movements(exchangeId, currencyId ?? 0, page),
    placeholderData: keepPreviousData,
    enabled: currencyId !== null,
    queryFn: () => listMovements(exchangeId, currencyId!, (page - 1) * LEDGER_PAGE, LEDGER_PAGE),
  });
}

const KIND_DONE = { deposit: 'deposited', withdrawal: 'withdrawn', count: 'counted' } as const;

/** A deposit, a withdrawal or a count at one exchange, in one currency. */
export function useRecordMovement(exchangeId: number) {
  return useSave(
    ({ currencyId, body }: { currencyId: number; body: MovementBody }) =>
      recordMovement(exchangeId, currencyId, body).then((r) => ({ ...r, kind: body.kind, amount: body.amount })),
    [cashKeys.exchange(exchangeId)],
    (r) => `${grouped(r.amount)} ${r.position.currency.ticker} ${KIND_DONE[r.kind]}`,
  );
}

export function useTransfer() {
  return useSave(
    (body: TransferBody) => transferCash(body),
    [cashKeys.all],
    (r) => `${grouped(r.to.movement.amount)} ${r.to.position.currency.ticker} transferred`,
  );
}

export function useSetLowWatermark(exchangeId: number) {
  return useSave(
    ({ currencyId, lowWatermark }: { currencyId: number; lowWatermark: string }) =>
      setLowWatermark(exchangeId, currencyId, lowWatermark),
    [cashKeys.positions(exchangeId)],
    (p) => `${p.currency.ticker}: low watermark ${grouped(p.lowWatermark)}`,
  );
}

/** Whether a position's available cash is below the watermark its exchange set (0: none set). */
export const isLow = (p: CashPosition) => compare(p.lowWatermark, 0) > 0 && compare(p.available, p.lowWatermark) < 0;

/**
 * The positions below their watermark at each exchange in reach, for the home page. The API has no branch-wide
 * list, and a branch has a handful of exchanges: one request each, refreshed with the dashboard.
 */
export function useLowPositions(exchanges: { id: number; name: string }[]) {
  return useQueries({
    queries: exchanges.map((x) => ({
      queryKey: cashKeys.positions(x.id),
      queryFn: () => listPositions(x.id),
      refetchInterval: 60_000,
    })),
    combine: (results) => ({
      pending: results.some((r) => r.isPending),
      low: results.flatMap((r, i) =>
        (r.data?.data ?? []).filter(isLow).map((position) => ({ exchange: exchanges[i]!, position })),
      ),
    }),
  });
}
