import type { Welcome } from '../../server/contract/welcome.js';
import type { ViewContext } from '../context.js';
import { actionButton, h, srOnly } from '../dom.js';
import { count } from '../plural.js';
import { hrefOf } from '../route.js';

/** The first steps of a fresh Melon, each a link to the section where it is done. */
const STEPS: Array<{ key: keyof Welcome['steps']; text: string; view: string; link: string }> = [
  {
    key: 'connectPhone',
    text: 'Connect a phone: make an app password for a music app',
    view: 'apps',
    link: 'Apps',
  },
  {
    key: 'inviteFamily',
    text: 'Invite the family: a code makes each person an account',
    view: 'invites',
    link: 'Invites',
  },
  { key: 'changePassword', text: 'Change the password Melon made for you', view: 'account', link: 'Account' },
];

/** "Melon found 1,204 tracks", or what to do when a music folder is missing or nothing was found. */
export function libraryLine(welcome: Pick<Welcome, 'tracks' | 'scanning' | 'musicFolders'>): string {
  const missing = welcome.musicFolders.filter((folder) => folder.status !== 'ok');
  if (missing.length > 0) {
    const names = missing.map((folder) => folder.path).join(', ');
    return (
      `Melon cannot read its music folder (${names}). Set MELON_LIBRARY to your music folder where ` +
      'Melon runs (for example MELON_LIBRARY=/srv/music) and start it again.'
    );
  }
  if (welcome.scanning)
    return `Melon is reading your music: ${count(welcome.tracks, 'track', 'tracks')} so far…`;
  if (welcome.tracks === 0)
    return 'Melon found no music yet. Put audio files in the music folder, or set MELON_LIBRARY to where they are.';
  return `Melon found ${count(welcome.tracks, 'track', 'tracks')} in your music folder.`;
}

/**
 * The welcome card, placed under the view's heading for an Admin until one closes it. Members never
 * see it: they cannot act on its steps (the server refuses them too).
 */
export function showWelcome(ctx: ViewContext, root: HTMLElement): void {
  if (ctx.session.role !== 'Admin') return;
  ctx.api
    .json<Welcome>('/api/welcome')
    .then((welcome) => {
      if (welcome.dismissed || !root.isConnected) return;
      const card = welcomeCard(ctx, welcome);
      const heading = root.querySelector('h1');
      if (heading) heading.after(card);
      else root.prepend(card);
    })
    .catch(() => undefined);
}

function welcomeCard(ctx: ViewContext, welcome: Welcome): HTMLElement {
  const done = STEPS.filter((step) => welcome.steps[step.key]).length;
  const card: HTMLElement = h(
    'section',
    { class: 'card welcome', testid: 'welcome', attrs: { 'aria-labelledby': 'welcome-title' } },
    h('h2', { text: 'Welcome to Melon', attrs: { id: 'welcome-title' } }),
    h('p', { testid: 'welcome-library', text: libraryLine(welcome) }),
    h('p', { class: 'muted', text: `Next steps (${done} of ${STEPS.length} done):` }),
    h(
      'ul',
      { class: 'welcome-steps', testid: 'welcome-steps' },
      ...STEPS.map((step) => {
        const isDone = welcome.steps[step.key];
        return h(
          'li',
          {
            class: isDone ? 'welcome-step done' : 'welcome-step',
            testid: `welcome-step-${step.key}`,
            attrs: { 'data-done': String(isDone) },
          },
          h('span', { class: 'welcome-tick', text: isDone ? '✓' : '○', attrs: { 'aria-hidden': 'true' } }),
          h(
            'span',
            {},
            srOnly(isDone ? 'Done: ' : 'To do: '),
            `${step.text} → `,
            h('a', { text: step.link, attrs: { href: hrefOf(step.view) } }),
          ),
        );
      }),
    ),
    actionButton('Close the welcome', 'welcome-dismiss', async () => {
      try {
        await ctx.api.json('/api/welcome/dismiss', { method: 'POST' });
        const view = card.parentElement;
        card.remove();
        view?.querySelector<HTMLElement>('h1')?.focus();
      } catch (error) {
        ctx.messages.error(error);
      }
    }),
  );
  return card;
}
