/**
 * Set-up shared by every web test file (vitest `setupFiles`): jsdom's gaps filled, failed requests'
 * console lines silenced (the screens log them by design, spec §8), and after each test the
 * rendered tree, faked globals, spies, fake timers and storage are put back.
 */
import './jsdomGaps.ts';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

// The machines running the suite are shared and sometimes busy: wait up to 5 s (not 1 s) for what a
// screen should show before calling it missing.
configure({ asyncUtilTimeout: 5000 });

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
  localStorage.clear();
  sessionStorage.clear();
});
