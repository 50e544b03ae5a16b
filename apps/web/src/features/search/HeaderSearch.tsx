import { Group, Kbd, Text, UnstyledButton } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { lazy, Suspense, useState } from 'react';

// The palette (Spotlight, the lists' link code and their declarations) is fetched the first time
// it is opened, not with the page: a list page's first download and first render do without it.
const SearchPalette = lazy(() => import('./SearchPalette.tsx').then((m) => ({ default: m.SearchPalette })));

/**
 * The header's search field, and the palette it opens (Ctrl+K / ⌘K too). Until it is first opened
 * only this button and the shortcut exist; from then on the palette is mounted and the shortcut is
 * its own (Spotlight's), and each press of the button opens it again (`opened` counts them).
 */
export function HeaderSearch() {
  const [opened, setOpened] = useState(0);
  const open = () => setOpened((count) => count + 1);
  // Spotlight's shortcut also works in a text field; so does this one, until the palette takes over.
  useHotkeys(opened === 0 ? [['mod+K', open]] : [], []);
  return (
    <>
      <UnstyledButton
        onClick={open}
        aria-label="Search (Ctrl+K)"
        aria-keyshortcuts="Control+K Meta+K"
        px="sm"
        py={4}
        style={{
          border: '1px solid var(--mantine-color-default-border)',
          borderRadius: 'var(--mantine-radius-sm)',
          background: 'var(--mantine-color-default)',
          minWidth: 0,
        }}
      >
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" c="dimmed">
            Search…
          </Text>
          {/* Written as in the name 'Search (Ctrl+K)': a name must hold the visible text (axe: label-content-name-mismatch). */}
          <Kbd size="xs" visibleFrom="md">
            (Ctrl+K)
          </Kbd>
        </Group>
      </UnstyledButton>
      {opened > 0 && (
        <Suspense fallback={null}>
          <SearchPalette opened={opened} />
        </Suspense>
      )}
    </>
  );
}
