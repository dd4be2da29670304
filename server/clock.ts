/** Anything that expires or stamps time asks a Clock, so tests can move time instead of waiting. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to; for tests. */
export class ManualClock implements Clock {
  constructor(private current: number = Date.UTC(2026, 10, 1, 12, 0, 0)) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(ms: number): void {
    this.current = ms;
  }
}

export const MINUTE_MS = 60_000;

/** ISO 8601 in UTC with `Z`, the only date format responses carry. */
export function isoUtc(ms: number): string {
  return new Date(ms).toISOString();
}
