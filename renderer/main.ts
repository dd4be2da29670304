/**
 * The settings page, served by the server at /admin and loaded by the desktop window. No framework:
 * each tab is a view module; everything goes through the HTTP API with the signed-in user's token.
 */
import type { MelonDesktop } from '../shared/desktop-api.js';
import { Api, errorText } from './api.js';
import type { View, ViewContext } from './context.js';
import { actionButton, h, replace } from './dom.js';
import { Messages } from './messages.js';
import { loadSession, saveSession, type Role } from './session.js';
import { accountView } from './views/account.js';
import { artworkView } from './views/artwork.js';
import { historyView } from './views/history.js';
import { invitesView } from './views/invites.js';
import { signInView } from './views/signin.js';
import { statsView } from './views/stats.js';
import { updatesView } from './views/updates.js';
import { usersView } from './views/users.js';

interface Tab {
  id: string;
  label: string;
  roles: Role[];
  view: View;
}

/** Tabs by role, as the route table allows: Pass reads statistics only, Users also check updates. */
const TABS: Tab[] = [
  { id: 'stats', label: 'Statistics', roles: ['Admin', 'User', 'Pass'], view: statsView },
  { id: 'history', label: 'History', roles: ['Admin', 'User'], view: historyView },
  { id: 'invites', label: 'Invites', roles: ['Admin'], view: invitesView },
  { id: 'artwork', label: 'Artwork', roles: ['Admin'], view: artworkView },
  { id: 'users', label: 'Users', roles: ['Admin'], view: usersView },
  { id: 'updates', label: 'Updates', roles: ['Admin', 'User'], view: updatesView },
  { id: 'account', label: 'Account', roles: ['Admin', 'User', 'Pass'], view: accountView },
];

export function tabsFor(role: Role): Tab[] {
  return TABS.filter((tab) => tab.roles.includes(role));
}

const desktop = (window as Window & { melonDesktop?: MelonDesktop }).melonDesktop ?? null;
const messages = new Messages(document.getElementById('messages')!);
const nav = document.getElementById('tabs')!;
const account = document.getElementById('account')!;
const main = document.getElementById('view')!;
let session = loadSession();
let cleanup: () => void = () => undefined;

const api = new Api(
  () => session?.token ?? null,
  (detail) => {
    // The token expired or was revoked (password change, user deleted): back to sign-in.
    signOut();
    messages.error(`Please sign in again: ${detail}`);
  },
);

function signOut(): void {
  session = null;
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
      }),
    );
    return;
  }
  const current = session;
  const tabs = tabsFor(current.role);
  const wanted = location.hash.slice(1);
  const tab = tabs.find((candidate) => candidate.id === wanted) ?? tabs[0]!;
  replace(
    nav,
    ...tabs.map((candidate) =>
      h('a', {
        class: 'tab',
        testid: `tab-${candidate.id}`,
        text: candidate.label,
        attrs: { href: `#${candidate.id}`, 'aria-current': candidate.id === tab.id ? 'page' : null },
        // The hash does not change when the open section's tab is clicked: reload it instead.
        on: {
          click: () => (candidate.id === tab.id && location.hash === `#${tab.id}` ? render() : undefined),
        },
      }),
    ),
  );
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
    renewSession: (next) => {
      session = next;
      saveSession(next);
    },
  };
  const root = h('div', { class: 'view', testid: `view-${tab.id}` });
  replace(main, root);
  document.title = `${tab.label} — Melon`;
  cleanup = tab.view(ctx, root);
}

/** Only inside the desktop app: what the preload bridge allows. */
function desktopTools(bridge: MelonDesktop): HTMLElement {
  const run = (action: () => Promise<void>, done?: string) => async () => {
    try {
      await action();
      if (done) messages.info(done);
    } catch (error) {
      messages.error(errorText(error));
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
      const check = await api.json<{ userId: string; username: string; role: Role; expiresAt: string }>(
        '/auth/check',
      );
      session = {
        ...session,
        userId: check.userId,
        username: check.username,
        role: check.role,
        expiresAt: check.expiresAt,
      };
      saveSession(session);
    } catch (error) {
      if (session) messages.error(errorText(error)); // a refused token already signed out
    }
  }
  render();
}

window.addEventListener('hashchange', () => {
  if (session) render();
});
window.addEventListener('unhandledrejection', (event) => messages.error(errorText(event.reason)));
void start();
