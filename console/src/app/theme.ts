import { createTheme } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'teal',
  // Users who ask their system for less motion get no sliding drawers or fades.
  respectReducedMotion: true,
  defaultRadius: 'sm',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  components: {
    // Tables of a back office are read row by row: keep them dense and striped.
    Table: { defaultProps: { striped: true, highlightOnHover: true, verticalSpacing: 'xs' } },
    // A wide table scrolls sideways: show that it does, rather than a scrollbar that appears only on hover.
    TableScrollContainer: { defaultProps: { scrollAreaProps: { type: 'auto' } } },
    // A state is read from its badge: a squeezed column must not cut ROLLED and REVOKED to the same "R…".
    Badge: { styles: { root: { overflow: 'visible' }, label: { overflow: 'visible' } } },
    // Mantine's clear buttons have no name of their own: a screen reader would announce "button".
    Select: { defaultProps: { clearButtonProps: { 'aria-label': 'Clear' } } },
    MultiSelect: { defaultProps: { clearButtonProps: { 'aria-label': 'Clear' } } },
    // Nor have the close buttons of dialogs and drawers, those opened through `modals` included.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
  },
});
