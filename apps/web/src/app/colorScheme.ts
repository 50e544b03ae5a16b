import { localStorageColorSchemeManager } from '@mantine/core';

/**
 * Where this browser keeps the operator's colour scheme ('light' or 'dark'; absent: the operating
 * system's). public/colorScheme.js reads the same key before the app starts, so keep them equal.
 */
export const COLOR_SCHEME_STORAGE_KEY = 'obd-admin-color-scheme';

/** Mantine's colour scheme, kept in localStorage (and followed across this browser's tabs). */
export const colorSchemeManager = localStorageColorSchemeManager({ key: COLOR_SCHEME_STORAGE_KEY });
