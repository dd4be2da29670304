import QRCode from 'qrcode';
import type { Invite } from '../../server/contract/auth.js';
import { formatCountdown } from '../../shared/countdown.js';
import { confirmDialog } from '../confirm.js';
import { copyText, type View } from '../context.js';
import { actionButton, card, field, h, replace, viewHeading } from '../dom.js';
import { inviteLink } from '../format.js';
import { count } from '../plural.js';
import { errorBox, placeholder } from '../ui/section.js';

const POLL_MS = 2000;
const MAX_ACTIVE = 5;

/**
 * Invites (Admin): a new code large with a countdown and a QR code of the page at the network
 * address with the code after `#`.
 * The page asks the server every two seconds what became of the codes, so it says "✓ joined as
 * robin" once the device has made its account; used, expired and revoked codes leave the list.
 */
export const invitesView: View = (ctx, root) => {
  let invites: Invite[] | null = null;
  let current: Invite | null = null;
  let serverAddress = location.origin;
  let failed: unknown = null;

  const currentBox = h('div', {
    class: 'invite-current',
    testid: 'invite-current',
    attrs: { 'aria-live': 'polite' },
  });
  const list = h('div', { testid: 'invite-list-box' }, placeholder('invite codes', 'invite-list'));
  const recent = h('ul', { class: 'invite-list', testid: 'invite-recent' });
  const limit = h('p', { class: 'muted', testid: 'invite-limit' });
  const role = h(
    'select',
    { testid: 'invite-role' },
    h('option', { text: 'User — a member: plays, rates, sees the household', attrs: { value: 'User' } }),
    h('option', { text: 'Pass — a speaker or wall display: read-only', attrs: { value: 'Pass' } }),
  );
  const create = actionButton(
    'Create invite code',
    'invite-create',
    async () => {
      try {
        const invite = await ctx.api.json<Invite>('/auth/invite', { query: { role: role.value } });
        current = invite;
        invites = [invite, ...(invites ?? []).filter((other) => other.id !== invite.id)];
        await drawCurrent();
        draw();
      } catch (error) {
        ctx.messages.error(error);
      }
    },
    'button primary',
  );

  replace(
    root,
    viewHeading('Invites'),
    card(
      'Invite a device',
      h('p', {
        class: 'muted',
        text:
          'A code lets one new household device make its own account. It works once and for 10 minutes. ' +
          'Type it into the Melon app, or scan the QR code.',
      }),
      limit,
      field('The new account joins as', role, 'An invite never makes an Admin.'),
      create,
      currentBox,
    ),
    card('Waiting codes', list),
    card('Joined today', recent),
  );

  async function drawCurrent(): Promise<void> {
    if (!current) return replace(currentBox);
    const link = inviteLink(serverAddress, current.code);
    const qr = h('img', {
      class: 'invite-qr',
      testid: 'invite-qr',
      attrs: { alt: `QR code for ${link}`, width: 200, height: 200 },
    });
    const code = current.code;
    replace(
      currentBox,
      h('div', { class: 'invite-code', testid: 'invite-code', text: code }),
      h('div', { class: 'invite-countdown', testid: 'invite-countdown' }),
      qr,
      h('code', { class: 'invite-link', testid: 'invite-link', text: link }),
      actionButton('Copy code', 'invite-copy', async () => {
        try {
          await copyText(ctx, code);
          ctx.messages.info('Invite code copied.');
        } catch (error) {
          ctx.messages.error(error);
        }
      }),
    );
    try {
      qr.src = await QRCode.toDataURL(link, { margin: 1, width: 200, errorCorrectionLevel: 'M' });
    } catch (error) {
      ctx.messages.error(error);
    }
    tick();
  }

  /** What became of the code on show, in words, once it is no longer waiting. */
  function settleCurrent(): void {
    if (!current || !invites) return;
    const now = Date.now();
    const latest = invites.find((invite) => invite.id === current!.id) ?? current;
    const state = latest.state === 'active' && Date.parse(latest.expiresAt) <= now ? 'expired' : latest.state;
    if (state === 'active') return;
    const text =
      state === 'joined'
        ? `✓ ${latest.code} joined as ${latest.joinedAs ?? 'a new user'}`
        : state === 'used'
          ? `${latest.code} was entered on a device; waiting for it to make its account…`
          : state === 'revoked'
            ? `${latest.code} was revoked.`
            : 'That code has expired. Create a new one.';
    const testid = {
      joined: 'invite-joined',
      used: 'invite-used',
      revoked: 'invite-revoked',
      expired: 'invite-expired',
    }[state];
    if (currentBox.querySelector(`[data-testid="${testid}"]`)) return;
    replace(
      currentBox,
      h('p', { class: state === 'joined' ? 'ok-text invite-outcome' : 'muted invite-outcome', testid, text }),
    );
    if (state !== 'used') current = null;
  }

  function draw(): void {
    if (failed) {
      replace(
        list,
        errorBox(failed, 'invite-list', () => void load()),
      );
      return;
    }
    if (!invites) return;
    const now = Date.now();
    const waiting = invites.filter(
      (invite) => invite.state === 'active' && Date.parse(invite.expiresAt) > now,
    );
    limit.textContent = `${count(waiting.length, 'code is', 'codes are')} waiting; at most ${MAX_ACTIVE} at once. A code leaves the list when it is used, revoked or expires.`;
    replace(
      list,
      waiting.length === 0
        ? h('p', { class: 'muted', testid: 'invite-none', text: 'No codes are waiting.' })
        : h(
            'ul',
            { class: 'invite-list', testid: 'invite-list' },
            ...waiting.map((invite) =>
              h(
                'li',
                { class: 'invite-row', testid: 'invite-row', attrs: { 'data-code': invite.code } },
                h('span', { class: 'invite-row-code', text: invite.code }),
                h('span', { class: 'muted invite-left', attrs: { 'data-expires': invite.expiresAt } }),
                actionButton(
                  'Revoke',
                  'invite-revoke',
                  async () => {
                    const ok = await confirmDialog(
                      `Revoke ${invite.code}?`,
                      'The code stops working at once.',
                      'Revoke',
                    );
                    if (!ok) return;
                    try {
                      await ctx.api.json('/auth/invites/revoke', {
                        method: 'POST',
                        json: { code: invite.code },
                      });
                      ctx.messages.info(`${invite.code} was revoked.`);
                    } catch (error) {
                      ctx.messages.error(error);
                    }
                    await load();
                  },
                  'button small danger',
                ),
              ),
            ),
          ),
    );
    const joined = invites.filter((invite) => invite.state === 'joined');
    replace(
      recent,
      ...(joined.length
        ? joined.map((invite) =>
            h('li', {
              class: 'invite-row',
              testid: 'invite-joined-row',
              text: `✓ ${invite.code} joined as ${invite.joinedAs ?? 'a user since deleted'}${invite.role === 'Pass' ? ' (Pass)' : ''}`,
            }),
          )
        : [h('li', { class: 'muted', text: 'No device has joined today.' })]),
    );
    settleCurrent();
    tick();
  }

  /** Every second: only the countdown texts change; a code that runs out redraws the list. */
  function tick(): void {
    const now = Date.now();
    let expired = false;
    list.querySelectorAll<HTMLElement>('.invite-left').forEach((element) => {
      const left = Date.parse(element.dataset.expires!) - now;
      if (left <= 0) expired = true;
      else element.textContent = `${formatCountdown(left)} left`;
    });
    const countdown = currentBox.querySelector('[data-testid="invite-countdown"]');
    if (current && countdown)
      countdown.textContent = `Expires in ${formatCountdown(Math.max(0, Date.parse(current.expiresAt) - now))}`;
    if (expired || (current && Date.parse(current.expiresAt) <= now && current.state === 'active')) {
      settleCurrent();
      if (expired) draw();
    }
  }

  async function load(): Promise<void> {
    try {
      invites = await ctx.api.json<Invite[]>('/auth/invites', { query: { all: true } });
      failed = null;
    } catch (error) {
      failed = error;
    }
    draw();
  }

  void ctx.api
    .json<{ addresses: string[] }>('/api/server-info')
    .then((info) => {
      serverAddress = info.addresses[0] ?? location.origin;
    })
    .catch(() => undefined);
  void load();
  const timer = setInterval(tick, 1000);
  const poll = setInterval(() => void load(), POLL_MS);
  return () => {
    clearInterval(timer);
    clearInterval(poll);
  };
};
