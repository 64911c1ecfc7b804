import {
  colorsTuple,
  createTheme,
  darken,
  DEFAULT_THEME,
  luminance,
  type CSSVariablesResolver,
  type MantineColorsTuple,
} from '@mantine/core';

/** WCAG's contrast ratio of two colours (1 to 21). */
function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

/**
 * A palette whose dark end reads: white text on shade 6 (filled buttons and badges, the focus ring, links) and shade 9
 * on shade 1 (light badges, the active page in the navigation) reach AA's 4.5:1. Mantine's teal gave 2.55:1 and
 * 4.32:1, its yellow 1.86:1 and 2.69:1. Shade 6 is the colour darkened just enough for 4.8:1 on white (4.5:1 still on
 * the gray 0 of striped rows and the board's columns), 7 to 9 darker still, so that hover states keep the contrast;
 * the light shades 0 to 5 stay as they were.
 */
function readable(palette: MantineColorsTuple): MantineColorsTuple {
  let six = palette[6];
  for (let step = 1; contrast(six, '#ffffff') < 4.8; step += 1) six = darken(palette[6], step * 0.03);
  return colorsTuple([...palette.slice(0, 6), six, darken(six, 0.1), darken(six, 0.2), darken(six, 0.3)]);
}

const CHROMATIC = [
  'red',
  'pink',
  'grape',
  'violet',
  'indigo',
  'blue',
  'cyan',
  'teal',
  'green',
  'lime',
  'yellow',
  'orange',
] as const;

export const theme = createTheme({
  primaryColor: 'teal',
  colors: Object.fromEntries(CHROMATIC.map((c) => [c, readable(DEFAULT_THEME.colors[c])])),
  // Users who ask their system for less motion get no sliding drawers or fades.
  respectReducedMotion: true,
  defaultRadius: 'sm',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  components: {
    // Tables of a back office are read row by row: keep them dense and striped.
    Table: { defaultProps: { striped: true, highlightOnHover: true, verticalSpacing: 'xs' } },
    // A wide table scrolls sideways: show that it does, rather than a scrollbar that appears only on hover, and let
    // the keyboard scroll it too (a table of text alone has nothing else to focus on a phone).
    TableScrollContainer: { defaultProps: { scrollAreaProps: { type: 'auto', viewportProps: { tabIndex: 0 } } } },
    // A state is read from its badge: a squeezed column must not cut ROLLED and REVOKED to the same "R…".
    Badge: { styles: { root: { overflow: 'visible' }, label: { overflow: 'visible' } } },
    // Mantine's clear buttons have no name of their own: a screen reader would announce "button".
    Select: { defaultProps: { clearButtonProps: { 'aria-label': 'Clear' } } },
    MultiSelect: { defaultProps: { clearButtonProps: { 'aria-label': 'Clear' } } },
    // Nor have the close buttons of dialogs and drawers, those opened through `modals` included.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    // And notices ("1,000.50 USD deposited"): axe finds the nameless close button while a notice is up.
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close notice' } } },
    // Mantine keeps the show-password toggle out of the tab order: a keyboard user could not check what was typed.
    PasswordInput: {
      defaultProps: { visibilityToggleFocusable: true, visibilityToggleButtonProps: { 'aria-label': 'Show password' } },
    },
  },
});

/**
 * Dimmed text (descriptions, times, hints) in gray 7: Mantine's gray 6 is 3.32:1 on white and 3.15:1 on the board's
 * gray columns, where staff read it all day; gray 7 is 8.2:1 and still lighter than the text beside it.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});
