import type { InviteView } from '../server/contract/auth.js';
import { formatCountdown } from '../shared/countdown.js';
import { messageOf } from '../server/errors.js';

export { formatCountdown };

/** The tray's "Create invite code": make one, copy it, and count it down in the menu. */
export interface ActiveInvite extends InviteView {
  remainingMs: number;
}

/** The codes the tray made that are still valid, soonest expiry last (newest first). */
export class InviteTracker {
  private invites: InviteView[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  add(invite: InviteView): void {
    this.invites = [invite, ...this.invites.filter((other) => other.code !== invite.code)];
  }

  active(): ActiveInvite[] {
    const now = this.now();
    this.invites = this.invites.filter((invite) => Date.parse(invite.expiresAt) > now);
    return this.invites.map((invite) => ({ ...invite, remainingMs: Date.parse(invite.expiresAt) - now }));
  }
}

export interface InviteActionDeps {
  create: () => Promise<InviteView>;
  copy: (text: string) => void;
  notify: (title: string, body: string) => void;
  tracker: InviteTracker;
  now?: () => number;
}

/**
 * Makes a code, puts it on the clipboard and tells the user; a refusal (five codes already active,
 * server not running) becomes a notification rather than an unhandled rejection.
 */
export async function createInviteAction(deps: InviteActionDeps): Promise<InviteView | null> {
  try {
    const invite = await deps.create();
    deps.tracker.add(invite);
    deps.copy(invite.code);
    const remaining = Date.parse(invite.expiresAt) - (deps.now ?? Date.now)();
    deps.notify(
      `Invite code ${invite.code}`,
      `Copied to the clipboard. Valid for ${formatCountdown(remaining)} and usable once.`,
    );
    return invite;
  } catch (error) {
    deps.notify('Could not create an invite code', messageOf(error));
    return null;
  }
}
