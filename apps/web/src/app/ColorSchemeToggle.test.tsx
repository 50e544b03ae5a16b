import fs from 'node:fs';
import path from 'node:path';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from './AppProviders.tsx';
import { ColorSchemeToggle } from './ColorSchemeToggle.tsx';
import { COLOR_SCHEME_STORAGE_KEY } from './colorScheme.ts';
import { createQueryClient } from './queryClient.ts';

/** The operating system asks for `scheme` (jsdom has no media engine: matchMedia is the app's only way to ask). */
function systemPrefers(scheme: 'light' | 'dark') {
  const matchMedia = window.matchMedia;
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => ({
    ...matchMedia(query),
    matches: scheme === 'dark' && query.includes('prefers-color-scheme: dark'),
  }));
}

const shown = () => document.documentElement.getAttribute('data-mantine-color-scheme');

function renderToggle() {
  render(
    <AppProviders queryClient={createQueryClient()}>
      <ColorSchemeToggle />
    </AppProviders>,
  );
  return screen.getByRole('button', { name: 'Dark colours' });
}

describe('colour scheme toggle', () => {
  it('follows a light system, switches to dark and remembers it, and back means following the system', () => {
    systemPrefers('light');
    const toggle = renderToggle();
    expect(shown()).toBe('light');
    expect(toggle.getAttribute('aria-pressed')).toBe('false');

    fireEvent.click(toggle);
    expect(shown()).toBe('dark');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(localStorage.getItem(COLOR_SCHEME_STORAGE_KEY)).toBe('dark');

    fireEvent.click(toggle);
    expect(shown()).toBe('light');
    expect(localStorage.getItem(COLOR_SCHEME_STORAGE_KEY)).toBeNull();
  });

  it('follows a dark system by default, and keeps light when the operator picks it', () => {
    systemPrefers('dark');
    const toggle = renderToggle();
    expect(shown()).toBe('dark');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(localStorage.getItem(COLOR_SCHEME_STORAGE_KEY)).toBeNull();

    fireEvent.click(toggle);
    expect(shown()).toBe('light');
    expect(localStorage.getItem(COLOR_SCHEME_STORAGE_KEY)).toBe('light');
  });

  it('starts in the scheme this browser remembers, whatever the system says', () => {
    systemPrefers('light');
    localStorage.setItem(COLOR_SCHEME_STORAGE_KEY, 'dark');
    const toggle = renderToggle();
    expect(shown()).toBe('dark');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
  });
});

describe('public/colorScheme.js (runs before the app, so the first paint has the scheme)', () => {
  const source = fs.readFileSync(path.join(import.meta.dirname, '../../public/colorScheme.js'), 'utf8');
  const run = () => {
    document.documentElement.removeAttribute('data-mantine-color-scheme');
    new Function(source)();
    return shown();
  };

  it('reads the key the app keeps the choice under', () => {
    expect(source).toContain(`'${COLOR_SCHEME_STORAGE_KEY}'`);
  });

  it("puts the remembered scheme on <html>, else the system's; ignores a value it does not know", () => {
    systemPrefers('dark');
    expect(run()).toBe('dark');
    localStorage.setItem(COLOR_SCHEME_STORAGE_KEY, 'light');
    expect(run()).toBe('light');
    localStorage.setItem(COLOR_SCHEME_STORAGE_KEY, 'purple');
    expect(run()).toBe('dark');
    vi.restoreAllMocks();
    systemPrefers('light');
    expect(run()).toBe('light');
    localStorage.setItem(COLOR_SCHEME_STORAGE_KEY, 'dark');
    expect(run()).toBe('dark');
  });
});
