import type { ViewContext } from '../context.js';
import { h, onSubmit, submitButton } from '../dom.js';
import { explain } from '../problems.js';
import type { UserRow } from './users.js';

/** One labelled control with its hint and its inline error, wired with aria-describedby. */
function control(
  id: string,
  label: string,
  input: HTMLInputElement | HTMLSelectElement,
  hint: string | null,
) {
  input.id = id;
  const error = h('small', { class: 'field-error', testid: `${id}-error`, attrs: { id: `${id}-error` } });
  const hintEl = hint ? h('small', { class: 'muted', text: hint, attrs: { id: `${id}-hint` } }) : null;
  input.setAttribute(
    'aria-describedby',
    [hint ? `${id}-hint` : null, `${id}-error`].filter(Boolean).join(' '),
  );
  const set = (text: string) => {
    error.textContent = text;
    if (text) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  };
  return {
    element: h(
      'div',
      { class: 'field' },
      h('label', { class: 'field-label', text: label, attrs: { for: id } }),
      input,
      hintEl,
      error,
    ),
    set,
  };
}

/** Create a user: the fields in a grid, each checked as it is left and on submit, before sending. */
export function createUserForm(ctx: ViewContext, created: () => Promise<void>): HTMLFormElement {
  const username = h('input', {
    testid: 'user-new-username',
    attrs: { maxlength: 64, autocomplete: 'off', required: true },
  });
  const password = h('input', {
    testid: 'user-new-password',
    attrs: { type: 'password', minlength: 8, maxlength: 256, autocomplete: 'new-password', required: true },
  });
  const role = h(
    'select',
    { testid: 'user-new-role' },
    h('option', { text: 'User — plays, rates, sees the household', attrs: { value: 'User' } }),
    h('option', { text: 'Pass — read-only (guest, wall display)', attrs: { value: 'Pass' } }),
    h('option', { text: 'Admin — manages the server', attrs: { value: 'Admin' } }),
  );
  const u = control('user-new-username', 'Username', username, 'Up to 64 characters; not already taken.');
  const p = control('user-new-password', 'Password', password, 'At least 8 characters.');
  const r = control('user-new-role', 'Role', role, null);
  const checkName = () => {
    const value = username.value;
    u.set(
      !value.trim() ? 'Enter a username.' : value !== value.trim() ? 'No spaces at the start or end.' : '',
    );
    return !u.element.querySelector('[aria-invalid]') && value.trim() !== '';
  };
  const checkPassword = () => {
    p.set(password.value.length < 8 ? 'At least 8 characters.' : '');
    return password.value.length >= 8;
  };
  username.addEventListener('blur', () => username.value && checkName());
  password.addEventListener('blur', () => password.value && checkPassword());
  const submit = submitButton('Create user', 'user-create');
  const form = h(
    'form',
    { class: 'form-grid', testid: 'user-form', attrs: { novalidate: true } },
    u.element,
    p.element,
    r.element,
    h('div', { class: 'form-actions' }, submit),
  );
  onSubmit(form, submit, async () => {
    const ok = [checkName(), checkPassword()].every(Boolean);
    if (!ok) {
      form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    try {
      const user = await ctx.api.json<UserRow>('/api/users/create', {
        method: 'POST',
        json: { username: username.value, password: password.value, role: role.value },
      });
      ctx.messages.info(`Created ${user.role} “${user.username}”.`);
      form.reset();
      await created();
    } catch (error) {
      const { code } = error as { code?: string };
      if (code === 'username_taken') {
        u.set(explain(error).text);
        username.focus();
      }
      ctx.messages.error(error);
    }
  });
  return form;
}
