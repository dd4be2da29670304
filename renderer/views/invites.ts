import QRCode from 'qrcode';
import type { Invite } from '../../server/contract/auth.js';
import { errorText } from '../api.js';
import { copyText, type View } from '../context.js';
import { actionButton, card, h, replace } from '../dom.js';
import { formatCountdown } from '../../shared/countdown.js';
import { formatDateTime, inviteLink } from '../format.js';

/**
 * Invites (Admin): a new code is shown large with a live countdown and a QR code of
 * `melon://<host:port>?code=XXXX`; the list of active codes drops each code as it expires.
 */
export const invitesView: View = (ctx, root) => {
  let invites: Invite[] = [];
  let current: Invite | null = null;
  let serverAddress = location.origin;

  const currentBox = h('div', { class: 'invite-current', testid: 'invite-current' });
  const list = h('ul', { class: 'invite-list', testid: 'invite-list' });
  const create = actionButton(
    'Create invite code',
    'invite-create',
    async () => {
      try {
        const invite = await ctx.api.json<Invite>('/auth/invite');
        current = invite;
        invites = [invite, ...invites.filter((other) => other.code !== invite.code)];
        await drawCurrent();
        tick();
      } catch (error) {
        ctx.messages.error(errorText(error));
      }
    },
    'button primary',
  );

  replace(
    root,
    card(
      'Invite a device',
      h('p', {
        class: 'muted',
        text:
          'A code lets one new household device create its own account. It works once and only for 10 minutes. ' +
          'Type the code into the Melon app, or scan the QR code.',
      }),
      create,
      currentBox,
    ),
    card('Active codes', list),
  );

  async function drawCurrent(): Promise<void> {
    if (!current) return replace(currentBox);
    const link = inviteLink(serverAddress, current.code);
    const qr = h('img', {
      class: 'invite-qr',
      testid: 'invite-qr',
      attrs: { alt: `QR code for ${link}`, width: 200, height: 200 },
    });
    replace(
      currentBox,
      h('div', { class: 'invite-code', testid: 'invite-code', text: current.code }),
      h('div', { class: 'invite-countdown', testid: 'invite-countdown' }),
      qr,
      h('code', { class: 'invite-link', testid: 'invite-link', text: link }),
      actionButton('Copy code', 'invite-copy', async () => {
        try {
          await copyText(ctx, current?.code ?? '');
          ctx.messages.info('Invite code copied.');
        } catch (error) {
          ctx.messages.error(`Could not copy: ${errorText(error)}`);
        }
      }),
    );
    try {
      qr.src = await QRCode.toDataURL(link, { margin: 1, width: 200, errorCorrectionLevel: 'M' });
    } catch (error) {
      ctx.messages.error(`Could not draw the QR code: ${errorText(error)}`);
    }
  }

  function tick(): void {
    const now = Date.now();
    invites = invites.filter((invite) => Date.parse(invite.expiresAt) > now);
    if (current && Date.parse(current.expiresAt) <= now) {
      current = null;
      replace(
        currentBox,
        h('p', {
          class: 'muted',
          testid: 'invite-expired',
          text: 'That code has expired. Create a new one.',
        }),
      );
    }
    const countdown = currentBox.querySelector('[data-testid="invite-countdown"]');
    if (current && countdown)
      countdown.textContent = `Expires in ${formatCountdown(Date.parse(current.expiresAt) - now)}`;
    if (invites.length === 0) {
      replace(list, h('li', { class: 'muted', testid: 'invite-none', text: 'No active codes.' }));
      return;
    }
    replace(
      list,
      ...invites.map((invite) =>
        h(
          'li',
          { class: 'invite-row', testid: 'invite-row', attrs: { 'data-code': invite.code } },
          h('span', { class: 'invite-row-code', text: invite.code }),
          h('span', {
            class: 'muted',
            text: `${formatCountdown(Date.parse(invite.expiresAt) - now)} left · until ${formatDateTime(invite.expiresAt)}`,
          }),
        ),
      ),
    );
  }

  const load = async () => {
    try {
      const [active, info] = await Promise.all([
        ctx.api.json<Invite[]>('/auth/invites'),
        ctx.api.json<{ addresses: string[] }>('/api/server-info'),
      ]);
      invites = active;
      serverAddress = info.addresses[0] ?? location.origin;
      tick();
    } catch (error) {
      ctx.messages.error(errorText(error));
    }
  };
  tick();
  void load();
  const timer = setInterval(tick, 1000);
  return () => clearInterval(timer);
};
