import type { Forwarding } from '../../server/contract/forwarding.js';
import type { ViewContext } from '../context.js';
import { actionButton, card, field, h, onSubmit, submitButton } from '../dom.js';
import { formatAgo, formatNumber } from '../format.js';
import { section } from '../ui/section.js';

/** What each forwarding error means for the member, before the service's own words. */
const ERROR_WORDS: Record<NonNullable<Forwarding['lastError']>['code'], string> = {
  token_refused: 'Token refused: sending has stopped until you give a valid token.',
  listen_refused: 'The service refused a listen; it was dropped and the rest went on.',
  unreachable: 'The service could not be reached; Melon keeps trying.',
  server_error: 'The service had a problem; Melon keeps trying.',
  rate_limited: 'The service asked Melon to slow down; sending resumes by itself.',
  outbox_full: 'The outbox was full: the oldest waiting listens were dropped.',
};

/** How often the state is asked again while the Account view is open (queue size, last send). */
const REFRESH_MS = 15_000;

/**
 * Account: send one's plays on to ListenBrainz (or a self-hosted ListenBrainz, Maloja, Koito):
 * turn on with a token, see the queue, the last send and the last error, turn off.
 */
export function forwardingCard(ctx: ViewContext): { element: HTMLElement; stop: () => void } {
  const url = h('input', {
    testid: 'forwarding-url',
    attrs: { type: 'url', required: true, maxlength: 512, autocomplete: 'url', spellcheck: 'false' },
  });
  const token = h('input', {
    testid: 'forwarding-token',
    attrs: { type: 'password', required: true, maxlength: 256, autocomplete: 'off', spellcheck: 'false' },
  });
  const submit = submitButton('Turn on', 'forwarding-save');
  const form = h(
    'form',
    { class: 'inline-form' },
    field('Service address', url, 'https://api.listenbrainz.org, or your own server’s ListenBrainz API.'),
    field('ListenBrainz token', token, 'From your ListenBrainz settings page. Melon keeps it encrypted.'),
    submit,
  );
  let loaded = false;
  const state = section<Forwarding>({
    testid: 'forwarding-state',
    label: 'forwarding',
    load: () => ctx.api.json<Forwarding>('/api/users/forwarding'),
    render: (forwarding) => {
      if (!loaded) url.value = forwarding.url;
      loaded = true;
      submit.textContent = forwarding.enabled ? 'Save' : 'Turn on';
      return describe(forwarding);
    },
  });
  onSubmit(form, submit, () =>
    ctx.api
      .json<Forwarding>('/api/users/forwarding', {
        method: 'POST',
        json: { url: url.value.trim(), token: token.value.trim() },
      })
      .then(() => {
        token.value = '';
        ctx.messages.info('Your plays are now forwarded.');
        return state.reload();
      })
      .catch((error: unknown) => ctx.messages.error(error)),
  );

  function describe(forwarding: Forwarding): HTMLElement[] {
    const rows: HTMLElement[] = [
      h('p', {
        testid: 'forwarding-status',
        text: forwarding.enabled ? `On: your plays go to ${forwarding.url}.` : 'Off: your plays stay here.',
      }),
    ];
    if (forwarding.enabled || forwarding.queued > 0)
      rows.push(
        h('p', {
          class: 'muted',
          testid: 'forwarding-queue',
          text: `Waiting to be sent: ${formatNumber(forwarding.queued)} · Last sent: ${formatAgo(forwarding.lastSentAt)}`,
        }),
      );
    if (forwarding.lastError)
      rows.push(
        h('p', {
          class: 'error-text',
          testid: 'forwarding-error',
          text: `${ERROR_WORDS[forwarding.lastError.code]} (${formatAgo(forwarding.lastError.at)}: ${forwarding.lastError.message})`,
        }),
      );
    if (forwarding.enabled)
      rows.push(
        actionButton('Turn off', 'forwarding-off', () =>
          ctx.api
            .json<Forwarding>('/api/users/forwarding', { method: 'POST', json: { token: null } })
            .then(() => {
              ctx.messages.info('Forwarding is off; plays that were waiting were dropped.');
              return state.reload();
            })
            .catch((error: unknown) => ctx.messages.error(error)),
        ),
      );
    return rows;
  }

  void state.reload();
  const timer = setInterval(() => void state.reload(), REFRESH_MS);
  return {
    element: card('Forward plays to ListenBrainz', state.element, form),
    stop: () => {
      clearInterval(timer);
      state.cancel();
    },
  };
}
