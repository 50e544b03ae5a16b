/** A user agent as a person names it: 'Chrome 142 on Linux', 'Firefox 133 on Windows'. */
export function browserText(userAgent: string | null): string {
  if (!userAgent) return '-';
  const browsers: [string, RegExp][] = [
    ['Edge', /Edg(?:e|A|iOS)?\/(\d+)/],
    ['Opera', /OPR\/(\d+)/],
    ['Firefox', /(?:Firefox|FxiOS)\/(\d+)/],
    ['Chrome', /(?:HeadlessChrome|Chrome|CriOS)\/(\d+)/],
    ['Safari', /Version\/(\d+)[^ ]* (?:Mobile\/\S+ )?Safari\//],
  ];
  const systems: [string, RegExp][] = [
    ['Android', /Android/],
    ['iOS', /iPhone|iPad|iPod/],
    ['Windows', /Windows/],
    ['macOS', /Mac OS X|Macintosh/],
    ['ChromeOS', /CrOS/],
    ['Linux', /Linux/],
  ];
  const browser = browsers
    .map(([name, pattern]) => {
      const match = pattern.exec(userAgent);
      return match ? `${name} ${match[1]}` : undefined;
    })
    .find(Boolean);
  const system = systems.find(([, pattern]) => pattern.test(userAgent))?.[0];
  if (!browser) return userAgent.length > 60 ? `${userAgent.slice(0, 57)}...` : userAgent;
  return system ? `${browser} on ${system}` : browser;
}
