import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrast, cssVariablesResolver, darkRow, lightRow, theme } from './theme.ts';

const resolved = mergeMantineTheme(DEFAULT_THEME, theme);
const variables = cssVariablesResolver(resolved);

/** A variable's colour: a literal, or `var(--mantine-color-<name>-<shade>)` looked up in the palette. */
function colourOf(value: string | undefined): string {
  const shade = /^var\(--mantine-color-([a-z]+)-(\d)\)$/.exec(value ?? '');
  if (shade) return resolved.colors[shade[1] ?? '']?.[Number(shade[2])] ?? '';
  return value ?? '';
}

const COLOURS = Object.keys(resolved.colors).filter((name) => name !== 'dark');
const WHITE = '#ffffff';
const DARK_BODY = resolved.colors.dark[7];

describe('theme contrast (WCAG AA 4.5:1, what axe checks in the journeys)', () => {
  it('computes contrast as WCAG does', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#228be6', '#ffffff')).toBeCloseTo(3.55, 1);
    expect(contrast('rgba(25, 113, 194, 1)', '#ffffff')).toBeGreaterThan(4.5);
  });

  it.each(COLOURS)(
    '%s: text and outline on the page, white on filled, light-variant text on its tints',
    (name) => {
      const light = variables.light;
      const dark = variables.dark;
      const shades = resolved.colors[name] ?? [];
      expect(contrast(colourOf(light[`--mantine-color-${name}-text`]), WHITE)).toBeGreaterThanOrEqual(4.5);
      // On a striped or hovered table row too (axe found red on a hovered Import History row).
      expect(
        contrast(colourOf(light[`--mantine-color-${name}-text`]), lightRow(resolved)),
      ).toBeGreaterThanOrEqual(4.5);
      expect(
        contrast(colourOf(dark[`--mantine-color-${name}-text`]), darkRow(resolved)),
      ).toBeGreaterThanOrEqual(4.5);
      expect(contrast(colourOf(light[`--mantine-color-${name}-outline`]), WHITE)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(WHITE, colourOf(light[`--mantine-color-${name}-filled`]))).toBeGreaterThanOrEqual(4.5);
      for (const tint of [shades[1], shades[2]]) {
        expect(
          contrast(colourOf(light[`--mantine-color-${name}-light-color`]), tint ?? ''),
        ).toBeGreaterThanOrEqual(4.5);
      }
      expect(contrast(colourOf(dark[`--mantine-color-${name}-text`]), DARK_BODY)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(WHITE, colourOf(dark[`--mantine-color-${name}-filled`]))).toBeGreaterThanOrEqual(4.5);
    },
  );

  it('makes dimmed text readable in both schemes', () => {
    expect(contrast(colourOf(variables.light['--mantine-color-dimmed']), WHITE)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(colourOf(variables.dark['--mantine-color-dimmed']), DARK_BODY)).toBeGreaterThanOrEqual(
      4.5,
    );
  });
});
