/**
 * The settings page, served by the server at /admin and loaded by the desktop window. No framework:
 * each tab is a view module; everything goes through the HTTP API with the signed-in user's token.
 */
import type { MelonDesktop } from '../shared/desktop-api.js';
import type { UpdateCheck } from '../server/contract/updates.js';
import type { AccountRole } from '../server/contract/users.js';
import { Api } from './api.js';
import type { View, ViewContext } from './context.js';
import { actionButton, h, replace } from './dom.js';
import { currentPlace, hrefOf } from './route.js';
import { Messages } from './messages.js';
import { loadSession, saveSession } from './session.js';
import { accountView } from './views/account.js';
import { appsView } from './views/apps.js';
import { artworkView } from './views/artwork.js';
import { showWelcome } from './views/welcome.js';
import { historyView } from './views/history.js';
import { invitesView } from './views/invites.js';
import { listenView } from './views/listen.js';
import { Player } from './player/player.js';
import { playerBar } from './player/player-bar.js';
import { libraryView } from './views/library.js';
import { signInView } from './views/signin.js';
import { statsView } from './views/stats.js';
import { updatesView } from './views/updates.js';
import { usersView } from './views/users.js';

interface Tab {
  id: string;
  label: string;
  roles: AccountRole[];
  view: View;
}

/**
 * Sections by role, as the route table allows: Pass listens and reads statistics, Users also check
 * updates. Statistics stay the first section a member lands on; Listen is one click away.
 */
const TABS: Tab[] = [
  { id: 'stats', label: 'Statistics', roles: ['Admin', 'User', 'Pass'], view: statsView },
  { id: 'listen', label: 'Listen', roles: ['Admin', 'User', 'Pass'], view: listenView },
  { id: 'history', label: 'History', roles: ['Admin', 'User', 'Pass'], view: historyView },
  { id: 'invites', label: 'Invites', roles: ['Admin'], view: invitesView },
  { id: 'artwork', label: 'Artwork', roles: ['Admin'], view: artworkView },
  { id: 'library', label: 'Library', roles: ['Admin'], view: libraryView },
  { id: 'users', label: 'Users', roles: ['Admin'], view: usersView },
  { id: 'apps', label: 'Apps', roles: ['Admin', 'User', 'Pass'], view: appsView },
  { id: 'updates', label: 'Updates', roles: ['Admin', 'User'], view: updatesView },
  { id: 'account', label: 'Account', roles: ['Admin', 'User', 'Pass'], view: accountView },
];

export function tabsFor(role: AccountRole): Tab[] {
  return TABS.filter((tab) => tab.roles.includes(role));
}

const desktop = (window as Window & { melonDesktop?: MelonDesktop }).melonDesktop ?? null;
const messages = new Messages(document.getElementById('messages')!);
const nav = document.getElementById('tabs')!;
const account = document.getElementById('account')!;
const main = document.getElementById('view')!;
const playerRoot = document.getElementById('player')!;
// The skip link moves focus past the section links to the view's heading; following its href would
// change the hash, which is the page's route.
document.querySelector('.skip-link')?.addEventListener('click', (event) => {
  event.preventDefault();
  main.querySelector<HTMLElement>('h1')?.focus();
});
let player: Player | null = null;
let playerCleanup: () => void = () => undefined;
let session = loadSession();
let cleanup: () => void = () => undefined;
let shownView: string | null = null;
let updateVersion: string | null = null;

const api = new Api(
  () => session?.token ?? null,
  () => {
    // The token expired or was revoked (password change, role change, user deleted): back to sign-in.
    signOut();
    messages.error('Your sign-in has ended. Please sign in again.');
  },
);

/** The player outlives view changes; it goes with the session (another member gets their own). */
function startPlayer(current: NonNullable<typeof session>): void {
  if (player) return;
  player = new Player(api, current, messages);
  playerCleanup = playerBar(player, playerRoot);
  playerRoot.hidden = false;
  player.restore().catch(() => undefined);
}

function stopPlayer(): void {
  playerCleanup();
  playerCleanup = () => undefined;
  player?.destroy();
  player = null;
  replace(playerRoot);
  playerRoot.hidden = true;
}

function signOut(): void {
  stopPlayer();
  session = null;
  shownView = null;
  updateVersion = null;
  saveSession(null);
  render();
}

function render(): void {
  cleanup();
  cleanup = () => undefined;
  document.body.dataset.signedIn = String(session !== null);
  if (!session) {
    replace(nav);
    replace(account);
    replace(
      main,
      signInView(api, messages, (next) => {
        session = next;
        saveSession(next);
        render();
        void checkForUpdate();
      }),
    );
    return;
  }
  const current = session;
  startPlayer(current);
  const tabs = tabsFor(current.role);
  const place = currentPlace();
  const tab = tabs.find((candidate) => candidate.id === place.view) ?? tabs[0]!;
  const navigated = shownView !== null && shownView !== tab.id;
  if (shownView !== tab.id) messages.clear();
  drawNav(tabs, tab);
  replace(
    account,
    desktop ? desktopTools(desktop) : null,
    h('span', { class: 'whoami', testid: 'whoami', text: `${current.username} · ${current.role}` }),
    h('button', {
      class: 'button small',
      testid: 'signout',
      text: 'Sign out',
      attrs: { type: 'button' },
      on: { click: signOut },
    }),
  );
  const ctx: ViewContext = {
    api,
    session: current,
    messages,
    desktop,
    player,
    params: place.params,
    setUpdateBadge: (version) => {
      updateVersion = version;
      drawNav(tabs, tab);
    },
    renewSession: (next) => {
      session = next;
      saveSession(next);
    },
  };
  const root = h('div', { class: 'view', testid: `view-${tab.id}` });
  replace(main, root);
  document.title = `${tab.label} — Melon`;
  shownView = tab.id;
  cleanup = tab.view(ctx, root);
  // The landing section greets an Admin of a fresh Melon with its first steps.
  if (tab.id === tabs[0]!.id) showWelcome(ctx, root);
  // Focus follows navigation to the new view's heading, so keyboard and screen-reader users land there.
  if (navigated) root.querySelector<HTMLElement>('h1')?.focus();
}

function drawNav(tabs: Tab[], current: Tab): void {
  replace(
    nav,
    ...tabs.map((candidate) =>
      h(
        'a',
        {
          class: 'tab',
          testid: `tab-${candidate.id}`,
          attrs: { href: hrefOf(candidate.id), 'aria-current': candidate.id === current.id ? 'page' : null },
          // The hash does not change when the open section's link is clicked: reload it instead.
          on: {
            click: (event) => {
              if (candidate.id !== current.id || location.hash !== hrefOf(candidate.id)) return;
              event.preventDefault();
              shownView = null;
              render();
            },
          },
        },
        candidate.label,
        candidate.id === 'updates' && updateVersion
          ? h('span', {
              class: 'tab-badge',
              testid: 'update-badge',
              text: '1',
              attrs: { 'aria-label': `(Melon ${updateVersion} is available)`, role: 'img' },
            })
          : null,
      ),
    ),
  );
}

/** Once per sign-in: is an update waiting? (The server caches the answer for 10 minutes.) */
async function checkForUpdate(): Promise<void> {
  if (!session || session.role === 'Pass') return;
  try {
    const info = await api.json<UpdateCheck>('/api/settings/check-for-updates');
    updateVersion = info.UpdateAvailable ? info.LatestVersion : null;
    if (session) {
      const tabs = tabsFor(session.role);
      drawNav(tabs, tabs.find((tab) => tab.id === shownView) ?? tabs[0]!);
    }
  } catch {
    // Quietly: the Updates section says why when it is opened.
  }
}

/** Only inside the desktop app: what the preload bridge allows. */
function desktopTools(bridge: MelonDesktop): HTMLElement {
  const run = (action: () => Promise<void>, done?: string) => async () => {
    try {
      await action();
      if (done) messages.info(done);
    } catch (error) {
      messages.error(error);
    }
  };
  return h(
    'span',
    { class: 'desktop-tools', testid: 'desktop-tools' },
    actionButton(
      'Open data folder',
      'desktop-open-data',
      run(() => bridge.openDataFolder()),
      'button small',
    ),
    actionButton(
      'Restart server',
      'desktop-restart',
      run(() => bridge.restartServer(), 'Server restarted.'),
      'button small',
    ),
  );
}

/** A stored session may have been revoked while the page was closed: check it once. */
async function start(): Promise<void> {
  if (session) {
    try {
      const check = await api.json<{
        userId: string;
        username: string;
        role: AccountRole;
        expiresAt: string;
      }>('/auth/check');
      session = {
        ...session,
        userId: check.userId,
        username: check.username,
        role: check.role,
        expiresAt: check.expiresAt,
      };
      saveSession(session);
    } catch (error) {
      if (session) messages.error(error); // a refused token already signed out
    }
  }
  render();
  void checkForUpdate();
}

window.addEventListener('hashchange', () => {
  if (session) render();
});
window.addEventListener('unhandledrejection', (event) => messages.error(event.reason));
void start();
