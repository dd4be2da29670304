import type { MelonDesktop } from '../shared/desktop-api.js';
import type { Api } from './api.js';
import type { Messages } from './messages.js';
import type { Player } from './player/player.js';
import type { Session } from './session.js';

/** What every view gets. */
export interface ViewContext {
  api: Api;
  session: Session;
  messages: Messages;
  /** The desktop app's bridge (preload.ts); null in a browser. */
  desktop: MelonDesktop | null;
  /** The page's player (Listen); null until signed in. */
  player: Player | null;
  /** The view's parameters from the address (route.ts), e.g. the statistics' person and range. */
  params: URLSearchParams;
  /** Tells the page an update is (or is no longer) waiting: the badge on Updates. */
  setUpdateBadge(version: string | null): void;
  /** Replaces the session after the password changed (the old token is revoked). */
  renewSession(session: Session): void;
}

/** A view draws itself into `root` and returns a cleanup for its timers and object URLs. */
export type View = (ctx: ViewContext, root: HTMLElement) => () => void;

/** Copies through the desktop bridge when there is one (no permission prompt), else the browser. */
export async function copyText(ctx: ViewContext, text: string): Promise<void> {
  if (ctx.desktop) await ctx.desktop.copyText(text);
  else await navigator.clipboard.writeText(text);
}
