/**
 * A fixed number of slots: a transcode gets one now or is refused (503 `busy`), so a household's
 * burst of requests cannot start more encoders than the machine has room for, and nothing queues
 * behind a long encode. One account holds at most half of them (at least one), so a single member
 * cannot keep everyone else waiting.
 *
 * One wait is allowed: for an encoder that is already stopping (its listener went away, and it is
 * killed within its grace time). A player seeking in a transcode asks for it again from the new
 * place as it drops the old one, and a quick second seek would otherwise find the slots of the
 * encoders it just left still held, and fail; on a busy machine an encoder takes a while to exit.
 */
export class Slots {
  private used = 0;
  private readonly byAccount = new Map<string, number>();
  /** Slots whose encoder is stopping, in all and by account. */
  private stoppingAll = 0;
  private readonly stoppingBy = new Map<string, number>();
  /** Requests waiting for a stopping encoder's slot: woken at each release. */
  private readonly waiters = new Set<() => void>();
  readonly perAccount: number;

  constructor(readonly size: number) {
    this.perAccount = Math.max(1, Math.floor(size / 2));
  }

  /** A slot now, or why there is none: every slot, or the account's share, is taken. */
  tryTake(account: string): Slot | 'busy' | 'account_busy' {
    if (this.used >= this.size) return 'busy';
    const mine = this.byAccount.get(account) ?? 0;
    if (mine >= this.perAccount) return 'account_busy';
    this.used += 1;
    this.byAccount.set(account, mine + 1);
    return this.slot(account);
  }

  /**
   * A slot now, or once an encoder that is stopping frees the one this request needs (the
   * account's own when its share is full), waiting at most `waitMs`; otherwise why there is none.
   * At most as many requests wait as there are slots.
   */
  async take(account: string, waitMs: number): Promise<Slot | 'busy' | 'account_busy'> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const taken = this.tryTake(account);
      if (typeof taken !== 'string') return taken;
      const stopping = taken === 'busy' ? this.stoppingAll : (this.stoppingBy.get(account) ?? 0);
      const left = deadline - Date.now();
      if (stopping === 0 || left <= 0 || this.waiters.size >= this.size) return taken;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.waiters.add(wake);
      });
    }
  }

  get inUse(): number {
    return this.used;
  }

  private slot(account: string): Slot {
    let stopping = false;
    let released = false;
    const count = (map: Map<string, number>, by: number) => {
      const left = (map.get(account) ?? 0) + by;
      if (left > 0) map.set(account, left);
      else map.delete(account);
    };
    return {
      stopping: () => {
        if (stopping || released) return;
        stopping = true;
        this.stoppingAll += 1;
        count(this.stoppingBy, 1);
      },
      release: () => {
        if (released) return;
        released = true;
        this.used -= 1;
        count(this.byAccount, -1);
        if (stopping) {
          this.stoppingAll -= 1;
          count(this.stoppingBy, -1);
        }
        for (const wake of [...this.waiters]) wake();
      },
    };
  }
}

/** A taken slot: `stopping` when its encoder is being stopped, `release` once it has exited (both idempotent). */
export interface Slot {
  readonly stopping: () => void;
  readonly release: () => void;
}
