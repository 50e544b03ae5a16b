/**
 * jsdom has no CSS media engine, and Mantine asks `matchMedia` for the preferred colour scheme.
 * Filling the gap with "no media query matches" (a light, wide screen) is what Mantine's own test
 * setup does; it fakes nothing the app computes.
 */
if (typeof window.matchMedia !== 'function') {
  window.matchMedia = (query: string): MediaQueryList =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

/** jsdom has no ResizeObserver either, which Mantine's Autocomplete dropdown asks for; nothing here measures. */
if (typeof window.ResizeObserver !== 'function') {
  window.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
