import QRCode from 'qrcode';
import type { ApiKey, NewApiKey } from '../../server/contract/users.js';
import { confirmDialog } from '../confirm.js';
import { copyText, type View } from '../context.js';
import { actionButton, card, field, h, onSubmit, replace, submitButton, viewHeading } from '../dom.js';
import { formatDateTime, hostOf } from '../format.js';
import { section } from '../ui/section.js';

/**
 * Apps: app keys let a music app or a scrobbler act as you without your password. A new key is
 * shown once, with the server's address and a QR code; keys are listed by name and revoked here.
 */
export const appsView: View = (ctx, root) => {
  let serverAddress = location.origin;
  const fresh = h('div', {
    class: 'app-key-fresh',
    testid: 'app-key-fresh',
    attrs: { 'aria-live': 'polite' },
  });

  const keys = section<ApiKey[]>({
    testid: 'app-keys',
    label: 'your app keys',
    load: () => ctx.api.json<ApiKey[]>('/api/users/api-keys'),
    isEmpty: (list) => list.length === 0,
    empty: 'No app keys yet.',
    render: (list) =>
      h(
        'ul',
        { class: 'app-key-list', testid: 'app-key-list' },
        ...list.map((key) =>
          h(
            'li',
            { class: 'app-key', testid: 'app-key' },
            h('span', { class: 'app-key-name', text: key.name }),
            h('span', {
              class: 'muted',
              text: `made ${formatDateTime(key.createdAt)}, last used ${formatDateTime(key.lastUsedAt)}`,
            }),
            actionButton(`Revoke ${key.name}`, 'app-key-revoke', async () => {
              const sure = await confirmDialog(
                'Revoke this app key?',
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
        ),
      ),
  });

  const name = h('input', {
    testid: 'app-key-name',
    attrs: { type: 'text', required: true, maxlength: 64, autocomplete: 'off' },
  });
  const submit = submitButton('Make a key', 'app-key-create');
  const form = h(
    'form',
    { class: 'inline-form' },
    field('App or device', name, 'e.g. Kitchen speaker'),
    submit,
  );
  onSubmit(form, submit, async () => {
    try {
      const made = await ctx.api.json<NewApiKey>('/api/users/api-keys/create', {
        method: 'POST',
        json: { name: name.value.trim() },
      });
      form.reset();
      await showOnce(made);
      await keys.reload();
    } catch (error) {
      ctx.messages.error(error);
    }
  });

  async function showOnce(made: NewApiKey): Promise<void> {
    const keyText = h('input', {
      testid: 'app-key-value',
      attrs: { type: 'text', readonly: true, value: made.key, 'aria-label': 'The new app key' },
    });
    const qr = h('img', {
      class: 'invite-qr',
      testid: 'app-key-qr',
      attrs: { alt: `QR code of the server address and the key for ${made.name}`, width: 200, height: 200 },
    });
    replace(
      fresh,
      h('p', { text: `The key for "${made.name}". Copy it now: Melon shows it only this once.` }),
      keyText,
      actionButton('Copy the key', 'app-key-copy', async () => {
        await copyText(ctx, made.key);
        ctx.messages.info('The key is copied.');
      }),
      h('p', { testid: 'app-key-server', text: `Server address: ${serverAddress}` }),
      qr,
    );
    qr.setAttribute(
      'src',
      await QRCode.toDataURL(`melon://${hostOf(serverAddress)}?key=${made.key}`, { margin: 1, width: 200 }),
    );
  }

  replace(
    root,
    viewHeading('Apps'),
    card(
      'Connect a music app',
      h('p', {
        text:
          'Subsonic apps (Symfonium, DSub, Substreamer, Feishin, Supersonic and others) play your music ' +
          'from Melon. Add a server in the app with the address below, your username, and an app key ' +
          '(pick "API key" where the app offers it; otherwise it asks for your password).',
      }),
      h('p', {
        text:
          'Scrobblers that send listens to ListenBrainz (Web Scrobbler, Pano Scrobbler, multi-scrobbler) ' +
          'use the address followed by /listenbrainz/1/ and an app key as their token.',
      }),
      h('p', { class: 'muted', testid: 'apps-address', text: `This server: ${serverAddress}` }),
    ),
    card('New app key', form, fresh),
    card('Your app keys', keys.element),
  );
  if (ctx.session.role === 'Admin') {
    // The page may be open on 127.0.0.1 (the desktop window); phones need the network address.
    void ctx.api
      .json<{ addresses: string[] }>('/api/server-info')
      .then((info) => {
        serverAddress = info.addresses[0] ?? serverAddress;
        root.querySelector('[data-testid="apps-address"]')!.textContent = `This server: ${serverAddress}`;
      })
      .catch(() => undefined);
  }
  void keys.reload();
  return () => keys.cancel();
};
