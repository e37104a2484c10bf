/**
 * Token bucket per caller identity (the bearer token when one is sent,
 * otherwise the source IP). Uses the monotonic clock, not the injectable
 * wall clock, so a frozen test clock never starves the bucket.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly perSecond: number) {}

  /** 0 when allowed; otherwise whole seconds to wait (at least 1). */
  take(identity: string): number {
    const now = performance.now();
    const b = this.buckets.get(identity) ?? { tokens: this.perSecond, at: now };
    b.tokens = Math.min(this.perSecond, b.tokens + ((now - b.at) / 1000) * this.perSecond);
    b.at = now;
    this.buckets.set(identity, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.perSecond));
  }
}
