import { useMatches } from '@mantine/core';

/**
 * True below Mantine's `sm` breakpoint (a phone held upright): there a row of inputs does not fit a table's width,
 * and a page shows its rows as cards. Read at the first render, so a wider screen never flashes the phone layout
 * (nor mounts its forms twice).
 */
export function usePhone(): boolean {
  return useMatches({ base: true, sm: false }, { getInitialValueInEffect: false });
}
