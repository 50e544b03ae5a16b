/**
 * Counts failed sign-ins per account and per client address in a sliding window. Kept in the
 * process: a restart forgets it, and with several processes each counts on its own, so the
 * effective limit is per process — acceptable for an internal tool behind a few servers.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly windowMs = 15 * 60 * 1000,
    private readonly perAccount = 5,
    private readonly perAddress = 20,
  ) {}

  /** Seconds until another attempt is allowed, or 0 when it is allowed now. */
  retryAfter(email: string, address: string): number {
    const now = Date.now();
    const wait = (key: string, max: number) => {
      const times = this.recent(key, now);
      return times.length >= max ? Math.ceil(((times[0] ?? now) + this.windowMs - now) / 1000) : 0;
    };
    return Math.max(wait(`e:${email}`, this.perAccount), wait(`a:${address}`, this.perAddress));
  }

  fail(email: string, address: string) {
    const now = Date.now();
    for (const key of [`e:${email}`, `a:${address}`]) this.failures.set(key, [...this.recent(key, now), now]);
  }

  succeed(email: string) {
    this.failures.delete(`e:${email}`);
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((t) => t > now - this.windowMs);
  }
}
