import type { User } from '../../server/contract/users.js';
import { errorText } from '../api.js';
import type { View } from '../context.js';
import { card, field, h, onSubmit, replace, submitButton } from '../dom.js';
import { formatDateTime } from '../format.js';

/** Users (Admin): who has an account, their role and last sign-in; create a new one. */
export const usersView: View = (ctx, root) => {
  const table = h('tbody', { testid: 'users-rows' });
  const username = h('input', {
    testid: 'user-new-username',
    attrs: { required: true, maxlength: 64, autocomplete: 'off' },
  });
  const password = h('input', {
    testid: 'user-new-password',
    attrs: { type: 'password', required: true, minlength: 8, maxlength: 256, autocomplete: 'new-password' },
  });
  const role = h(
    'select',
    { testid: 'user-new-role' },
    h('option', { text: 'User — plays, rates, own statistics', attrs: { value: 'User' } }),
    h('option', { text: 'Pass — read-only (guest, wall display)', attrs: { value: 'Pass' } }),
    h('option', { text: 'Admin — manages the server', attrs: { value: 'Admin' } }),
  );
  const submit = submitButton('Create user', 'user-create');
  const form = h(
    'form',
    { class: 'inline-form', testid: 'user-form' },
    field('Username', username),
    field('Password', password, 'At least 8 characters.'),
    field('Role', role),
    submit,
  );
  onSubmit(form, submit, () =>
    ctx.api
      .json<User>('/api/users/create', {
        method: 'POST',
        json: { username: username.value.trim(), password: password.value, role: role.value },
      })
      .then(async (user) => {
        ctx.messages.info(`Created ${user.role} “${user.username}”.`);
        form.reset();
        await load();
      })
      .catch((error: unknown) => ctx.messages.error(errorText(error))),
  );

  replace(
    root,
    card(
      'Users',
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'table', testid: 'users-table' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', { text: 'Username' }),
              h('th', { text: 'Role' }),
              h('th', { text: 'Last sign-in' }),
              h('th', { text: 'Statistics' }),
            ),
          ),
          table,
        ),
      ),
    ),
    card('Create a user', form),
  );

  async function load(): Promise<void> {
    try {
      const users = await ctx.api.json<User[]>('/api/users');
      replace(
        table,
        ...users.map((user) =>
          h(
            'tr',
            { testid: 'user-row', attrs: { 'data-username': user.username } },
            h('td', { text: user.username + (user.id === ctx.session.userId ? ' (you)' : '') }),
            h('td', {}, h('span', { class: `badge role-${user.role.toLowerCase()}`, text: user.role })),
            h('td', { text: formatDateTime(user.lastLogin) }),
            h('td', { text: user.publicStats ? 'public' : 'private' }),
          ),
        ),
      );
    } catch (error) {
      ctx.messages.error(errorText(error));
    }
  }

  void load();
  return () => undefined;
};
