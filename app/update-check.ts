import type { UpdateCheckAnswer } from '../server/contract/updates.js';
import { messageOf } from '../server/errors.js';

/** The tray's update check, as a small state machine; installing happens in the settings window. */
export type UpdateState =
  | { kind: 'idle' }
  | { kind: 'checking' }
  | { kind: 'up-to-date'; version: string }
  | { kind: 'available'; current: string; latest: string }
  | { kind: 'failed'; message: string };

export type UpdateEvent =
  { type: 'check' } | { type: 'result'; info: UpdateCheckAnswer } | { type: 'error'; message: string };

export function updateReducer(state: UpdateState, event: UpdateEvent): UpdateState {
  switch (event.type) {
    case 'check':
      return { kind: 'checking' };
    case 'result':
      // A result that arrives after the state moved on (no check running) is stale.
      if (state.kind !== 'checking') return state;
      return event.info.UpdateAvailable
        ? { kind: 'available', current: event.info.CurrentVersion, latest: event.info.LatestVersion }
        : { kind: 'up-to-date', version: event.info.CurrentVersion };
    case 'error':
      return state.kind === 'checking' ? { kind: 'failed', message: event.message } : state;
  }
}

/** What the notification says once a check ends; null while nothing is worth saying. */
export function updateNotice(state: UpdateState): { title: string; body: string } | null {
  switch (state.kind) {
    case 'up-to-date':
      return { title: 'Melon is up to date', body: `You have the latest version, ${state.version}.` };
    case 'available':
      return {
        title: `Melon ${state.latest} is available`,
        body: `You have ${state.current}. Open the settings to read what changed and install it.`,
      };
    case 'failed':
      return { title: 'Could not check for updates', body: state.message };
    default:
      return null;
  }
}

/** Runs one check, feeding the machine; a check already running is not started twice. */
export class UpdateChecker {
  private stateValue: UpdateState = { kind: 'idle' };

  constructor(
    private readonly check: () => Promise<UpdateCheckAnswer>,
    private readonly onChange: (state: UpdateState) => void,
  ) {}

  get state(): UpdateState {
    return this.stateValue;
  }

  async run(): Promise<UpdateState> {
    if (this.stateValue.kind === 'checking') return this.stateValue;
    this.dispatch({ type: 'check' });
    try {
      this.dispatch({ type: 'result', info: await this.check() });
    } catch (error) {
      this.dispatch({ type: 'error', message: messageOf(error) });
    }
    return this.stateValue;
  }

  private dispatch(event: UpdateEvent): void {
    this.stateValue = updateReducer(this.stateValue, event);
    this.onChange(this.stateValue);
  }
}
