import { useMutation } from '@tanstack/react-query';
import { printHtml, saveFile } from '../../../lib/print';
import { exportOrders, getReceipt } from '../api/orders';
import type { OrderFilters } from '../api/keys';

/** Fetches an order's receipt with the staff token and opens the browser's print dialog for it. */
export function usePrintReceipt() {
  return useMutation({
    mutationFn: getReceipt,
    onSuccess: (html, id) => printHtml(html, `Receipt of order #${id}`),
  });
}

/** Downloads the orders of the filters as CSV (every page, not only the one shown). */
export function useExportOrders() {
  return useMutation({
    mutationFn: exportOrders,
    onSuccess: (csv, filters: OrderFilters) =>
      saveFile(
        csv,
        `orders${filters.status ? `-${filters.status.toLowerCase()}` : ''}${filters.exchangeId !== null ? `-exchange-${filters.exchangeId}` : ''}.csv`,
      ),
  });
}
