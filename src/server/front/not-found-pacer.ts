/**
 * Paces the answers to addresses no route claims. A stored 404 page costs what a stored page
 * costs, so a flood of made-up addresses on as many connections as the readers have took half of
 * every serving thread. A site's own 404s are few: up to `perSecond` a second (with as many in a
 * burst) leave at once; past that each waits its turn, first come first served. A client that
 * floods is held back by its own waiting connections (each asks again only once answered), and
 * readers keep the threads. Waiting answers hold only their sockets, which are open anyway; past
 * `maxWaiting` they are answered at once, as before, rather than grow without bound.
 */
export class NotFoundPacer {
  private tokens: number;
  private refilledAt: number;
  private readonly waiting: Array<() => void> = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly perSecond: number;
  private readonly maxWaiting: number;
  private readonly now: () => number;

  constructor(perSecond: number, maxWaiting = 10_000, now: () => number = () => performance.now()) {
    this.perSecond = perSecond;
    this.maxWaiting = maxWaiting;
    this.now = now;
    this.tokens = perSecond;
    this.refilledAt = now();
  }

  /** Answers queued behind the rate. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `answer` now (after the requests that arrived with it) or when its turn comes. */
  admit(answer: () => void): void {
    this.refill();
    if (this.waiting.length === 0 && this.tokens >= 1) {
      this.tokens -= 1;
      setImmediate(answer);
      return;
    }
    if (this.waiting.length >= this.maxWaiting) {
      setImmediate(answer);
      return;
    }
    this.waiting.push(answer);
    this.schedule();
  }

  /** Answers everything still waiting (the server is closing: nobody should be left hanging). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const answer of this.waiting.splice(0)) answer();
  }

  private refill(): void {
    const now = this.now();
    this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.refilledAt) / 1000) * this.perSecond);
    this.refilledAt = now;
  }

  private schedule(): void {
    if (this.timer) return;
    const wait = Math.max(1, Math.ceil(((1 - this.tokens) / this.perSecond) * 1000));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.refill();
      while (this.waiting.length > 0 && this.tokens >= 1) {
        this.tokens -= 1;
        this.waiting.shift()!();
      }
      if (this.waiting.length > 0) this.schedule();
    }, wait);
  }
}
