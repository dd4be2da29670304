import type { View } from '../context.js';
import { card, field, h, onSubmit, replace, submitButton, viewHeading } from '../dom.js';
import { forwardingCard } from './forwarding-card.js';
import { signIn } from './signin.js';
import type { Member } from '../stats-data.js';
import type { UserRow } from './users.js';

/**
 * Account (everyone): share one's statistics with the household, change one's password, forward
 * one's plays to ListenBrainz.
 */
export const accountView: View = (ctx, root) => {
  const publicStats = h('input', { testid: 'public-stats', attrs: { type: 'checkbox' } });
  const state = h('span', { class: 'muted', testid: 'public-stats-state' });
  publicStats.addEventListener('change', () => {
    const wanted = publicStats.checked;
    publicStats.disabled = true;
    ctx.api
      .json<UserRow>('/api/users/settings', { method: 'POST', json: { publicStats: wanted } })
      .then((user) => {
        show(user.publicStats);
        ctx.messages.info(
          user.publicStats ? 'Your statistics are now public.' : 'Your statistics are now private.',
        );
      })
      .catch((error: unknown) => {
        publicStats.checked = !wanted;
        ctx.messages.error(error);
      })
      .finally(() => {
        publicStats.disabled = false;
      });
  });

  const current = h('input', {
    testid: 'password-current',
    attrs: { type: 'password', required: true, autocomplete: 'current-password' },
  });
  const next = h('input', {
    testid: 'password-new',
    attrs: { type: 'password', required: true, minlength: 8, maxlength: 256, autocomplete: 'new-password' },
  });
  const submit = submitButton('Change password', 'password-change', 'button');
  const form = h(
    'form',
    { class: 'stack-form' },
    field('Current password', current),
    field('New password', next, 'At least 8 characters.'),
    submit,
  );
  onSubmit(form, submit, () => {
    const newPassword = next.value;
    return (
      ctx.api
        .json('/api/users/change-password', {
          method: 'POST',
          json: { currentPassword: current.value, newPassword },
        })
        // Changing the password revokes every token, this one too: sign in again with the new one.
        .then(() => signIn(ctx.api, ctx.session.username, newPassword))
        .then((session) => {
          form.reset();
          ctx.renewSession(session);
          ctx.messages.info('Password changed. Other devices must sign in again.');
        })
        .catch((error: unknown) => ctx.messages.error(error))
    );
  });

  // A Pass account logs no plays, so it has none to forward.
  const forwarding = ctx.session.role === 'Pass' ? null : forwardingCard(ctx);
  replace(
    root,
    viewHeading('Account'),
    card(
      `${ctx.session.username}`,
      h('p', { class: 'muted', text: `Role: ${ctx.session.role}` }),
      h(
        'label',
        { class: 'check' },
        publicStats,
        h('span', { text: 'Let the household see my listening statistics' }),
        state,
      ),
    ),
    card('Change password', form),
    forwarding?.element ?? null,
  );

  function show(value: boolean | null): void {
    publicStats.indeterminate = value === null;
    publicStats.checked = value === true;
    state.textContent = value === null ? '' : value ? 'Now: public' : 'Now: private';
  }

  show(null);
  ctx.api
    .json<Member[]>('/api/stats/members')
    .then((members) => show(members.find((member) => member.self)?.publicStats ?? null))
    .catch((error: unknown) => ctx.messages.error(error));
  return () => forwarding?.stop();
};
