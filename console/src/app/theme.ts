import { createTheme } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'teal',
  defaultRadius: 'sm',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  components: {
    // Tables of a back office are read row by row: keep them dense and striped.
    Table: { defaultProps: { striped: true, highlightOnHover: true, verticalSpacing: 'xs' } },
  },
});
