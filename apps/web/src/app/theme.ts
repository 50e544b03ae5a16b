import { type CSSVariablesResolver, createTheme, darken, lighten } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'sm',
  // Blue 6 (Mantine's default light shade) is 3.5:1 against white, under WCAG AA's 4.5:1 for links,
  // blue text and white text on filled buttons (axe: color-contrast); blue 8 is 4.9:1. Dark: 8 too.
  primaryShade: { light: 8, dark: 8 },
  // The focus ring shows when focus came from the keyboard (:focus-visible), on every control; a
  // mouse click does not leave a ring behind. 'always' would add nothing for keyboard users.
  focusRing: 'auto',
});

/** The backgrounds text stands on besides the page: a table's striped and hovered rows. */
export const lightRow = (resolved: { colors: Record<string, readonly string[]> }) =>
  resolved.colors.gray?.[1] ?? '#f1f3f5';
export const darkRow = (resolved: { colors: Record<string, readonly string[]> }) =>
  resolved.colors.dark?.[6] ?? '#2e2e2e';

/** WCAG AA for normal-size text. */
const AA = 4.5;
const WHITE = '#ffffff';

/**
 * Every colour's text, filled, outline and light-variant shades made to reach 4.5:1 where Mantine's
 * defaults do not (green, teal, orange, yellow… text on white is 2–3:1; white on a filled green or
 * orange badge 3.3:1; a light badge's text on its tint under 4.5:1), in both schemes: the nearest
 * shade of the colour that passes, else the colour darkened (light) or lightened (dark) until it
 * does. Computed once, from the palette; colours that already pass keep Mantine's values. Mantine's
 * dimmed text (gray-6 on white, dark-2 on dark-7) gets one shade stronger in each scheme.
 */
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => {
  const light: Record<string, string> = { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' };
  const dark: Record<string, string> = { '--mantine-color-dimmed': 'var(--mantine-color-dark-1)' };
  for (const [name, shades] of Object.entries(resolved.colors)) {
    if (name === 'dark' || shades.length < 10) continue;
    const s = shades as readonly string[];
    // Light scheme: text and outline on the page and on a table's striped or hovered row (gray 1,
    // the darker of the two: red 8 passes on white but is 4.28:1 on a hovered row), white on
    // filled, shade 9 on the light tints.
    const lightText = passing(s.slice(6), lightRow(resolved), (c) => darken(c, 0.1));
    const filled = passing([s[8] ?? s[9] ?? ''], WHITE, (c) => darken(c, 0.1), WHITE);
    light[`--mantine-color-${name}-text`] = lightText;
    light[`--mantine-color-${name}-outline`] = lightText;
    light[`--mantine-color-${name}-filled`] = filled;
    light[`--mantine-color-${name}-filled-hover`] = darken(filled, 0.1);
    // Against the hover tint (shade 2), the darker of the light variant's two backgrounds.
    light[`--mantine-color-${name}-light-color`] = passing([s[9] ?? ''], s[2] ?? WHITE, (c) =>
      darken(c, 0.1),
    );
    // Dark scheme: text and outline on the body and on a striped or hovered row (dark 6, lighter
    // than the body): lighter shades; white on filled.
    const darkText = passing([s[4], s[3], s[2], s[1], s[0]].map(String), darkRow(resolved), (c) =>
      lighten(c, 0.1),
    );
    dark[`--mantine-color-${name}-text`] = darkText;
    dark[`--mantine-color-${name}-outline`] = darkText;
    dark[`--mantine-color-${name}-filled`] = filled;
    dark[`--mantine-color-${name}-filled-hover`] = darken(filled, 0.1);
  }
  return { variables: {}, light, dark };
};

/**
 * The first of `candidates` whose contrast with `background` (or, with `foreground`, of the
 * foreground on it) reaches AA; else the last one stepped by `step` until it does.
 */
function passing(
  candidates: readonly string[],
  background: string,
  step: (color: string) => string,
  foreground?: string,
): string {
  const ok = (color: string) =>
    foreground ? contrast(foreground, color) >= AA : contrast(color, background) >= AA;
  const found = candidates.find(ok);
  if (found) return found;
  let color = candidates[candidates.length - 1] ?? '#000000';
  for (let i = 0; i < 20 && !ok(color); i += 1) color = step(color);
  return color;
}

/** WCAG contrast ratio of two colours (#rgb/#rrggbb or rgb()/rgba() as Mantine's helpers give). */
export function contrast(a: string, b: string): number {
  const [la, lb] = [relativeLuminance(a), relativeLuminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

function relativeLuminance(color: string): number {
  const channels = rgbOf(color).map((value) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (channels[0] ?? 0) + 0.7152 * (channels[1] ?? 0) + 0.0722 * (channels[2] ?? 0);
}

function rgbOf(color: string): number[] {
  const rgb = /^rgba?\(([^)]+)\)$/.exec(color.trim());
  if (rgb)
    return (rgb[1] ?? '')
      .split(',')
      .slice(0, 3)
      .map((part) => Number.parseFloat(part));
  let hex = color.replace('#', '');
  if (hex.length === 3) hex = [...hex].map((digit) => digit + digit).join('');
  return [0, 2, 4].map((at) => Number.parseInt(hex.slice(at, at + 2), 16));
}
