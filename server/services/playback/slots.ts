/**
 * A fixed number of slots taken without waiting: a transcode either gets one now or is refused
 * (503 `busy`), so a household's burst of requests cannot start more encoders than the machine has
 * room for, and nothing queues behind a long encode. One account holds at most half of them (at
 * least one), so a single member cannot keep everyone else waiting.
 */
export class Slots {
  private used = 0;
  private readonly byAccount = new Map<string, number>();
  readonly perAccount: number;

  constructor(readonly size: number) {
    this.perAccount = Math.max(1, Math.floor(size / 2));
  }

  /** A release function (idempotent), or why there is none: every slot, or the account's share, is taken. */
  tryTake(account: string): (() => void) | 'busy' | 'account_busy' {
    if (this.used >= this.size) return 'busy';
    const mine = this.byAccount.get(account) ?? 0;
    if (mine >= this.perAccount) return 'account_busy';
    this.used += 1;
    this.byAccount.set(account, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used -= 1;
      const left = (this.byAccount.get(account) ?? 1) - 1;
      if (left > 0) this.byAccount.set(account, left);
      else this.byAccount.delete(account);
    };
  }

  get inUse(): number {
    return this.used;
  }
}
