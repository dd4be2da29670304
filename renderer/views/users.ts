import type { ListedUser, NewApiKey, User } from '../../server/contract/users.js';
import { confirmDialog, noticeDialog } from '../confirm.js';
import { copyText, type View, type ViewContext } from '../context.js';
import { actionButton, card, h, replace, viewHeading } from '../dom.js';
import { formatAgo } from '../format.js';
import { plays } from '../plural.js';
import type { DevicePlays } from '../stats-data.js';
import { errorBox, section, type Section } from '../ui/section.js';
import { createUserForm } from './user-form.js';

/** A user as the Admin's list answers it. */
export type UserRow = User & Partial<Pick<ListedUser, 'lastActivity'>>;

const ROLES = ['Admin', 'User', 'Pass'] as const;

/** A readable random password: 16 characters without look-alikes, from the browser's crypto. */
export function generatePassword(length = 16): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return [...bytes].map((byte) => alphabet[byte % alphabet.length]).join('');
}

/**
 * Users (Admin): who has an account, their role, last sign-in and last play, their devices; change
 * a role, reset a password (shown once), delete; create a user.
 */
export const usersView: View = (ctx, root) => {
  const status = h('div', {
    class: 'users-status',
    testid: 'users-status',
    attrs: { 'aria-live': 'polite' },
  });
  const list: Section = section<UserRow[]>({
    testid: 'users-list',
    label: 'users',
    load: () => ctx.api.json<UserRow[]>('/api/users'),
    render: (users) => table(ctx, users, reload, status),
  });
  const reload = (): Promise<void> => list.reload();
  replace(
    root,
    viewHeading('Users'),
    card('People', status, list.element),
    card('Create a user', createUserForm(ctx, reload)),
  );
  void list.reload();
  return () => list.cancel();
};

function table(
  ctx: ViewContext,
  users: UserRow[],
  reload: () => Promise<void>,
  status: HTMLElement,
): HTMLElement {
  const admins = users.filter((user) => user.role === 'Admin').length;
  return h(
    'table',
    { class: 'table users-table', testid: 'users-table' },
    h('caption', { class: 'visually-hidden', text: 'Every account' }),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['Username', 'Role', 'Last sign-in', 'Last play', 'Statistics', 'Devices', 'Actions'].map((name) =>
          h('th', { text: name, attrs: { scope: 'col' } }),
        ),
      ),
    ),
    h(
      'tbody',
      { testid: 'users-rows' },
      ...[...users]
        .sort((a, b) => a.username.localeCompare(b.username, 'en', { sensitivity: 'base' }))
        .map((user) => row(ctx, user, admins, reload, status)),
    ),
  );
}

function cell(label: string, ...children: (Node | string | null)[]): HTMLTableCellElement {
  return h('td', { attrs: { 'data-label': label } }, ...children);
}

function row(
  ctx: ViewContext,
  user: UserRow,
  admins: number,
  reload: () => Promise<void>,
  status: HTMLElement,
): HTMLTableRowElement {
  const self = user.id === ctx.session.userId;
  const say = (error: unknown, text?: string) =>
    replace(
      status,
      error === null
        ? h('p', { class: 'ok-text', testid: 'users-status-ok', text: text ?? '' })
        : errorBox(error, 'users-status', null),
    );
  const role = h(
    'select',
    { testid: 'user-role', attrs: { 'aria-label': `Role of ${user.username}` } },
    ...ROLES.map((name) => h('option', { text: name, attrs: { value: name, selected: name === user.role } })),
  );
  role.addEventListener('change', () => {
    const wanted = role.value;
    void (async () => {
      const ok = await confirmDialog(
        `Make ${user.username} ${wanted === 'Admin' ? 'an' : 'a'} ${wanted}?`,
        `${user.username} is signed out on every device and signs in again with the new role.`,
        'Change role',
        false,
      );
      if (!ok) {
        role.value = user.role;
        return;
      }
      try {
        await ctx.api.json('/api/users/role', { method: 'POST', json: { id: user.id, role: wanted } });
        say(null, `${user.username} is now ${wanted === 'Admin' ? 'an' : 'a'} ${wanted}.`);
        await reload();
      } catch (error) {
        role.value = user.role;
        say(error);
      }
    })();
  });
  const devices = h('span', { class: 'muted', testid: 'user-devices', text: '…' });
  ctx.api
    .json<DevicePlays[]>('/api/stats/devices', { query: { userId: user.id } })
    .then((list) => {
      devices.textContent = list.length
        ? list.map((entry) => `${entry.device ?? 'unknown device'} (${plays(entry.plays)})`).join(', ')
        : 'none yet';
    })
    .catch(() => {
      devices.textContent = '—';
    });
  const reset = self
    ? null
    : actionButton(
        'Reset password',
        'user-reset',
        async () => {
          const ok = await confirmDialog(
            `Reset ${user.username}’s password?`,
            `${user.username} gets a new password, shown to you once, and is signed out on every device.`,
            'Reset password',
          );
          if (!ok) return;
          const password = generatePassword();
          try {
            await ctx.api.json('/api/users/change-password', {
              method: 'POST',
              json: { userId: user.id, newPassword: password },
            });
            await noticeDialog(
              `${user.username}’s new password`,
              h('p', { text: 'It is shown only now. Give it to them; they can change it in Account.' }),
              h('p', { class: 'new-password', testid: 'reset-password-value', text: password }),
              actionButton('Copy', 'reset-password-copy', () =>
                copyText(ctx, password).then(
                  () => ctx.messages.info('Password copied.'),
                  (error: unknown) => ctx.messages.error(error),
                ),
              ),
            );
            say(null, `${user.username}’s password was reset.`);
          } catch (error) {
            say(error);
          }
        },
        'button small',
      );
  const appPassword = actionButton(
    'App password',
    'user-app-password',
    async () => {
      try {
        const made = await ctx.api.json<NewApiKey>('/api/users/api-keys/create', {
          method: 'POST',
          json: { name: `Made by an Admin for ${user.username}`.slice(0, 64), userId: user.id },
        });
        await noticeDialog(
          `An app password for ${user.username}`,
          h('p', {
            text:
              `A music app signs in with ${user.username}'s username and this app password, and acts as ` +
              `${user.username} with their role. It is shown only now; ${user.username} sees and revokes it in Apps.`,
          }),
          h('p', { class: 'new-password', testid: 'user-app-password-value', text: made.key }),
          actionButton('Copy', 'user-app-password-copy', () =>
            copyText(ctx, made.key).then(
              () => ctx.messages.info('App password copied.'),
              (error: unknown) => ctx.messages.error(error),
            ),
          ),
        );
      } catch (error) {
        say(error);
      }
    },
    'button small',
  );
  const remove = actionButton(
    'Delete',
    'user-delete',
    async () => {
      const ok = await confirmDialog(
        `Delete ${user.username}?`,
        self
          ? 'This is your own account: you are signed out at once. Their plays stay in the statistics; their ratings go.'
          : `${user.username} can no longer sign in. Their plays stay in the statistics; their ratings go.`,
        'Delete',
      );
      if (!ok) return;
      try {
        await ctx.api.json('/api/users/delete', { method: 'POST', fields: { id: user.id } });
        say(null, `${user.username} was deleted.`);
        await reload();
      } catch (error) {
        say(error);
      }
    },
    'button small danger',
  );
  // The server refuses to delete the last Admin too; the page says so before anyone tries.
  if (user.role === 'Admin' && admins === 1) {
    remove.disabled = true;
    remove.title = 'The only Admin cannot be deleted: make another Admin first.';
  }
  return h(
    'tr',
    { testid: 'user-row', attrs: { 'data-username': user.username } },
    cell('Username', h('span', { class: 'user-name', text: user.username + (self ? ' (you)' : '') })),
    cell(
      'Role',
      role,
      user.role === 'Admin' && admins === 1
        ? h('small', { class: 'muted block', text: 'the only Admin' })
        : null,
    ),
    cell('Last sign-in', formatAgo(user.lastLogin)),
    cell('Last play', formatAgo(user.lastActivity ?? null)),
    cell('Statistics', user.publicStats ? 'shared' : 'private'),
    cell('Devices', devices),
    cell('Actions', h('span', { class: 'row-actions' }, reset, appPassword, remove)),
  );
}
