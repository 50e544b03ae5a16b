import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';

/**
 * The header's light/dark switch. The app follows the operating system until the operator picks the
 * other scheme here; picking the system's scheme again means following the system again (nothing
 * kept), so there is no third "automatic" state to explain.
 */
export function ColorSchemeToggle() {
  const { setColorScheme, clearColorScheme } = useMantineColorScheme();
  const shown = useComputedColorScheme('light');
  const dark = shown === 'dark';
  const toggle = () => {
    const next = dark ? 'light' : 'dark';
    if (next === systemColorScheme()) clearColorScheme();
    else setColorScheme(next);
  };
  // The browser's own tooltip (`title`): Mantine's Tooltip would bring floating-ui (~16 kB gzip)
  // into the login page's first download for one hint; the name and state are in the ARIA attributes.
  return (
    <ActionIcon
      variant="default"
      size="lg"
      aria-label="Dark colours"
      aria-pressed={dark}
      title={dark ? 'Switch to light colours' : 'Switch to dark colours'}
      onClick={toggle}
    >
      {dark ? <SunIcon /> : <MoonIcon />}
    </ActionIcon>
  );
}

function systemColorScheme(): 'light' | 'dark' {
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function MoonIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5z"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
      />
    </svg>
  );
}

function SunIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="4" fill="none" stroke="currentColor" strokeWidth="2" />
      <path
        d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
      />
    </svg>
  );
}
