import QRCode from 'qrcode';
import type { ApiKey, NewApiKey } from '../../server/contract/users.js';
import { confirmDialog } from '../confirm.js';
import { copyText, type View, type ViewContext } from '../context.js';
import {
  actionButton,
  card,
  field,
  h,
  onSubmit,
  replace,
  submitButton,
  srOnly,
  viewHeading,
} from '../dom.js';
import { appsLink } from '../format.js';
import { keyUsage } from '../wording.js';
import { listSection } from '../ui/section.js';
import { APP_STEPS } from './app-steps.js';

/**
 * Apps: a member connects a music app with three fields (the server's network address, their
 * username, an app password made here and shown once) and short steps for the common apps. App
 * passwords are listed with the app that last used them, and revoked here. A QR code opens this
 * view on a phone at the network address, where the member signs in and makes their own.
 */
export const appsView: View = (ctx, root) => {
  let serverAddress = location.origin;
  const addressField = copyField(ctx, 'Server address', serverAddress, 'apps-address');
  const passwordField = copyField(ctx, 'App password', '', 'app-key-value');
  passwordField.input.placeholder = 'Make an app password below';
  const qr = h('img', {
    class: 'invite-qr',
    testid: 'apps-qr',
    attrs: {
      alt: 'QR code of this page at the network address, for a phone camera',
      width: 160,
      height: 160,
    },
  });
  const qrCaption = h('p', { class: 'muted', testid: 'apps-qr-link' });
  const fresh = h('div', {
    class: 'app-key-fresh',
    testid: 'app-key-fresh',
    attrs: { 'aria-live': 'polite' },
  });

  const keys = listSection<ApiKey>({
    testid: 'app-keys',
    label: 'your app passwords',
    load: () => ctx.api.json<ApiKey[]>('/api/users/api-keys'),
    empty: 'No app passwords yet.',
    list: { class: 'app-key-list', testid: 'app-key-list' },
    item: (key) =>
      h(
        'li',
        { class: 'app-key', testid: 'app-key' },
        h('span', { class: 'app-key-name', text: key.name }),
        srOnly(', '),
        h('span', { class: 'muted', testid: 'app-key-used', text: keyUsage(key) }),
        key.tokenSignIn
          ? null
          : h('span', {
              class: 'muted block',
              testid: 'app-key-no-token',
              text:
                'Made before app passwords: it works as an API key or a plain password, not for ' +
                'token sign-in (most apps’ default). Make a new one for such apps.',
            }),
        actionButton(`Revoke ${key.name}`, 'app-key-revoke', async () => {
          const sure = await confirmDialog(
            'Revoke this app password?',
            `Apps that use "${key.name}" stop working at once.`,
            'Revoke',
          );
          if (!sure) return;
          try {
            await ctx.api.json('/api/users/api-keys/delete', { method: 'POST', json: { id: key.id } });
            ctx.messages.info(`"${key.name}" was revoked.`);
            await keys.reload();
          } catch (error) {
            ctx.messages.error(error);
          }
        }),
      ),
  });

  const name = h('input', {
    testid: 'app-key-name',
    attrs: { type: 'text', required: true, maxlength: 64, autocomplete: 'off' },
  });
  const submit = submitButton('Make an app password', 'app-key-create');
  const form = h(
    'form',
    { class: 'inline-form' },
    field('App or device', name, 'e.g. DSub on my phone'),
    submit,
  );
  onSubmit(form, submit, async () => {
    try {
      const made = await ctx.api.json<NewApiKey>('/api/users/api-keys/create', {
        method: 'POST',
        json: { name: name.value.trim() },
      });
      form.reset();
      passwordField.input.value = made.key;
      replace(
        fresh,
        h('p', {
          testid: 'app-key-made',
          text: `The app password for "${made.name}" is in the field above. Copy it now: Melon shows it only this once.`,
        }),
      );
      await keys.reload();
    } catch (error) {
      ctx.messages.error(error);
    }
  });

  async function drawAddress(): Promise<void> {
    addressField.input.value = serverAddress;
    const link = appsLink(serverAddress);
    qrCaption.textContent = `Scan with a phone's camera to open this page on it: ${link}`;
    qr.setAttribute('src', await QRCode.toDataURL(link, { margin: 1, width: 160 }));
  }

  replace(
    root,
    viewHeading('Apps'),
    card(
      'Connect a music app',
      h('p', {
        text:
          'Subsonic apps play your music from Melon. Add a server in the app with these three fields. ' +
          'Each app gets its own app password: you can revoke one without touching the others, and ' +
          'your own password stays yours.',
      }),
      h(
        'div',
        { class: 'connect-fields', testid: 'apps-fields' },
        addressField.element,
        copyField(ctx, 'Username', ctx.session.username, 'apps-username').element,
        passwordField.element,
      ),
      fresh,
      form,
      h('div', { class: 'apps-qr' }, qr, qrCaption),
    ),
    card(
      'Steps for common apps',
      h(
        'dl',
        { class: 'app-steps', testid: 'app-steps' },
        ...APP_STEPS.flatMap((entry) => [
          h('dt', { text: `${entry.app} (${entry.platforms})` }),
          h('dd', { text: entry.steps }),
        ]),
      ),
      h('p', {
        class: 'muted',
        text:
          'Scrobblers that send listens to ListenBrainz (Web Scrobbler, Pano Scrobbler, multi-scrobbler) ' +
          'use the server address followed by /listenbrainz/1/ and an app password as their token.',
      }),
    ),
    card('Your app passwords', keys.element),
  );
  // The page may be open on 127.0.0.1 (the desktop window); phones need the network address.
  void ctx.api
    .json<{ address: string }>('/api/server-address')
    .then((info) => {
      if (info.address) serverAddress = info.address;
    })
    .catch(() => undefined)
    .then(drawAddress)
    .catch((error: unknown) => ctx.messages.error(error));
  void keys.reload();
  return () => keys.cancel();
};

/** A labelled read-only field with a Copy button. */
function copyField(
  ctx: ViewContext,
  label: string,
  value: string,
  testid: string,
): { element: HTMLElement; input: HTMLInputElement } {
  const input = h('input', {
    testid,
    attrs: { type: 'text', readonly: true, value, autocomplete: 'off', spellcheck: 'false' },
  });
  const copy = actionButton(
    `Copy the ${label.toLowerCase()}`,
    `${testid}-copy`,
    async () => {
      if (!input.value) return;
      await copyText(ctx, input.value);
      ctx.messages.info(`The ${label.toLowerCase()} is copied.`);
    },
    'button small',
  );
  return { element: h('div', { class: 'copy-field' }, field(label, input), copy), input };
}
