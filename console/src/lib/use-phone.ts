import { useMatches } from '@mantine/core';

/**
 * True below Mantine's `sm` breakpoint (a phone held upright): there a row of inputs does not fit a table's width,
 * and a page shows its rows as cards. Read at the first render, so a wider screen never flashes the phone layout
 * (nor mounts its forms twice).
 */
export function usePhone(): boolean {
  return useMatches({ base: true, sm: false }, { getInitialValueInEffect: false });
}

/**
 * True below Mantine's `md` breakpoint (a tablet, or a phone): the navigation is folded away there, yet a table of
 * many inputs (the offers: three amounts, a switch and Save a row) still does not fit 768 px, and its page shows
 * cards instead. Read at the first render, as `usePhone`.
 */
export function useNarrow(): boolean {
  return useMatches({ base: true, md: false }, { getInitialValueInEffect: false });
}
