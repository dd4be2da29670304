import type { Token } from '../../server/contract/auth.js';
import { ApiError, type Api } from '../api.js';
import { field, h, onSubmit, submitButton } from '../dom.js';
import type { Messages } from '../messages.js';
import type { Session } from '../session.js';

/** Signs in with POST (keeps the password out of URLs and logs) and checks the role. */
export async function signIn(api: Api, username: string, password: string): Promise<Session> {
  const token = await api.json<Token>('/auth/login', {
    method: 'POST',
    json: { username, password },
    anonymous: true,
  });
  if (token.role !== 'Admin' && token.role !== 'User' && token.role !== 'Pass') {
    throw new ApiError(401, 'forbidden_role', 'This account cannot use the settings page.');
  }
  return {
    token: token.token,
    userId: token.userId ?? '',
    username,
    role: token.role,
    expiresAt: token.expiresAt,
  };
}

export function signInView(
  api: Api,
  messages: Messages,
  onSignedIn: (session: Session) => void,
): HTMLElement {
  const username = h('input', {
    testid: 'signin-username',
    attrs: { name: 'username', autocomplete: 'username', required: true, autofocus: true },
  });
  const password = h('input', {
    testid: 'signin-password',
    attrs: { name: 'password', type: 'password', autocomplete: 'current-password', required: true },
  });
  const submit = submitButton('Sign in', 'signin-submit');
  const form = h(
    'form',
    { class: 'card signin', testid: 'signin-form' },
    h('h1', { text: 'Sign in to Melon' }),
    h('p', {
      class: 'muted',
      text: 'Household members see their own listening statistics; admins manage the server.',
    }),
    field('Username', username),
    field('Password', password),
    submit,
  );
  onSubmit(form, submit, () =>
    signIn(api, username.value.trim(), password.value)
      .then((session) => {
        messages.clear();
        onSignedIn(session);
      })
      .catch((error: unknown) => {
        messages.error(error);
        password.select();
      }),
  );
  return form;
}
