// Runs before the app's CSS and scripts (a blocking script in index.html's <head>): puts on <html>
// the colour scheme the operator chose in this browser (`obd-admin-color-scheme` in localStorage,
// kept by the app's toggle) or, by default, the operating system's, so that the first paint is
// already in the right scheme: no white flash before a dark page. Mantine's ColorSchemeScript does
// the same inline; a file here, because the server's Content-Security-Policy refuses inline scripts.
(() => {
  try {
    const stored = window.localStorage.getItem('obd-admin-color-scheme');
    const systemDark = window.matchMedia('(prefers-color-scheme: dark)').matches;
    const scheme = stored === 'light' || stored === 'dark' ? stored : systemDark ? 'dark' : 'light';
    document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
  } catch {
    // Storage blocked, or no matchMedia: the app decides once it starts.
  }
})();
