import { formatCountdown, type ActiveInvite } from './invite-action.js';
import type { ServerState } from './server-lifecycle.js';
import type { UpdateState } from './update-check.js';

export type MenuAction =
  | 'open-settings'
  | 'open-invites'
  | 'copy-address'
  | 'create-invite'
  | 'check-updates'
  | 'open-updates'
  | 'toggle-login-item'
  | 'retry-server'
  | 'quit';

export type MenuItemModel =
  | { type: 'separator' }
  | { type: 'normal'; label: string; action: MenuAction | null; enabled: boolean }
  | { type: 'checkbox'; label: string; action: MenuAction; checked: boolean; enabled: boolean };

export interface TrayState {
  server: ServerState;
  update: UpdateState;
  openAtLogin: boolean | null;
  invites: ActiveInvite[];
}

const item = (label: string, action: MenuAction | null, enabled = true): MenuItemModel => ({
  type: 'normal',
  label,
  action,
  enabled,
});

/** The tray menu as data: every desktop action, enabled only when it can work. */
export function buildMenuModel(state: TrayState): MenuItemModel[] {
  const running = state.server.kind === 'running';
  const address = state.server.kind === 'running' ? primaryAddress(state.server) : null;
  const menu: MenuItemModel[] = [item(serverLine(state.server), null, false)];
  if (state.server.kind === 'port-busy' || state.server.kind === 'failed') {
    menu.push(item('Retry starting the server', 'retry-server'));
  }
  menu.push({ type: 'separator' }, item('Open settings', 'open-settings', running));
  menu.push(
    item(address ? `Copy server address (${address})` : 'Copy server address', 'copy-address', running),
  );
  menu.push(item('Create invite code', 'create-invite', running));
  for (const invite of state.invites) {
    menu.push(
      item(`  ${invite.code} — ${formatCountdown(invite.remainingMs)} left`, 'open-invites', running),
    );
  }
  menu.push({ type: 'separator' }, updateItem(state.update, running));
  if (state.openAtLogin !== null) {
    menu.push({
      type: 'checkbox',
      label: 'Start at login',
      action: 'toggle-login-item',
      checked: state.openAtLogin,
      enabled: true,
    });
  }
  menu.push({ type: 'separator' }, item('Quit Melon', 'quit'));
  return menu;
}

function updateItem(update: UpdateState, running: boolean): MenuItemModel {
  switch (update.kind) {
    case 'checking':
      return item('Checking for updates…', null, false);
    case 'available':
      return item(`Install Melon ${update.latest}…`, 'open-updates', running);
    default:
      return item('Check for updates', 'check-updates', running);
  }
}

function serverLine(server: ServerState): string {
  switch (server.kind) {
    case 'running':
      return `Melon is running on ${primaryAddress(server)}`;
    case 'starting':
      return 'Melon is starting…';
    case 'port-busy':
      return `Port ${server.port} is in use — server not running`;
    case 'failed':
      return 'The server could not start';
    case 'stopped':
      return 'The server is stopped';
  }
}

/** The LAN address household devices use; the loopback URL when there is no network. */
export function primaryAddress(server: Extract<ServerState, { kind: 'running' }>): string {
  const address = server.addresses[0] ?? server.url;
  return address.replace(/^https?:\/\//, '');
}

export function trayTooltip(state: TrayState): string {
  return state.server.kind === 'running'
    ? `Melon — ${primaryAddress(state.server)}`
    : `Melon — ${serverLine(state.server)}`;
}
