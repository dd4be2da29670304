import DOMPurify from 'dompurify';
import { marked } from 'marked';
import type { InstallAnswer, UpdateCheck, UpdateStatus } from '../../server/contract/updates.js';
import { ApiError, errorText } from '../api.js';
import type { View } from '../context.js';
import { actionButton, card, h, replace } from '../dom.js';

const POLL_MS = 400;

/** Release notes are markdown from the release source: rendered, then sanitised before use. */
export function renderNotes(markdown: string): DocumentFragment {
  const html = marked.parse(markdown, { async: false, gfm: true });
  const clean = DOMPurify.sanitize(html, { RETURN_DOM_FRAGMENT: true });
  // Links open outside the settings window.
  clean.querySelectorAll('a').forEach((link) => {
    link.setAttribute('target', '_blank');
    link.setAttribute('rel', 'noopener noreferrer');
  });
  return clean;
}

/** Updates: check, read what changed, install (Admin) with a progress bar fed by update-status. */
export const updatesView: View = (ctx, root) => {
  const isAdmin = ctx.session.role === 'Admin';
  let poll: ReturnType<typeof setInterval> | undefined;
  const result = h('div', { class: 'update-result', testid: 'update-result' });
  const progressBar = h('progress', { testid: 'update-progress', attrs: { max: 100, value: 0 } });
  const progressText = h('span', { class: 'progress-text', testid: 'update-percent', text: '' });
  const progress = h(
    'div',
    { class: 'update-progress', testid: 'update-progress-box' },
    progressBar,
    progressText,
  );
  progress.hidden = true;

  const check = actionButton(
    'Check for updates',
    'update-check',
    async () => {
      replace(result, h('p', { class: 'muted', testid: 'update-message', text: 'Checking…' }));
      try {
        const info = await ctx.api.json<UpdateCheck>('/api/settings/check-for-updates');
        drawResult(info);
      } catch (error) {
        replace(
          result,
          h('p', {
            class: 'error-text',
            testid: 'update-message',
            text: `The update check failed: ${errorText(error)}`,
          }),
        );
        ctx.messages.error(errorText(error));
      }
    },
    'button primary',
  );

  replace(
    root,
    card(
      'Updates',
      h('p', { class: 'muted', text: 'Melon checks its GitHub releases for a newer version.' }),
      check,
      result,
      progress,
    ),
  );

  function drawResult(info: UpdateCheck): void {
    const versions = h(
      'dl',
      { class: 'versions' },
      h('dt', { text: 'Installed' }),
      h('dd', { testid: 'update-current', text: info.CurrentVersion }),
      h('dt', { text: 'Latest' }),
      h('dd', { testid: 'update-latest', text: info.LatestVersion }),
    );
    if (!info.UpdateAvailable) {
      replace(
        result,
        versions,
        h('p', {
          class: 'ok-text',
          testid: 'update-message',
          text: `Melon is up to date (${info.CurrentVersion}).`,
        }),
      );
      return;
    }
    const notes = h('div', { class: 'release-notes', testid: 'update-notes' });
    notes.appendChild(renderNotes(info.ReleaseNotes ?? 'No release notes were published.'));
    replace(
      result,
      versions,
      h('p', { testid: 'update-message', text: `Melon ${info.LatestVersion} is available.` }),
      h('h3', { text: "What's new" }),
      notes,
      isAdmin
        ? actionButton(`Install ${info.LatestVersion}`, 'update-install', () => install(), 'button primary')
        : h('p', { class: 'muted', text: 'Ask an admin to install it.' }),
    );
  }

  async function install(): Promise<void> {
    progress.hidden = false;
    progress.classList.remove('failed');
    setProgress(0, 'Starting the download…');
    // update-melon answers only once the download is verified; poll meanwhile for the progress.
    startPolling();
    try {
      const answer = await ctx.api.json<InstallAnswer>('/api/settings/update-melon', {
        method: 'POST',
        json: {},
      });
      if (answer.status === 'up_to_date') {
        stopPolling();
        progress.hidden = true;
        ctx.messages.info('Melon is already up to date.');
        return;
      }
      stopPolling();
      setProgress(100, `Installing Melon ${answer.version}. Melon restarts when it is done.`);
      ctx.messages.info(`Installing Melon ${answer.version}…`);
    } catch (error) {
      stopPolling();
      const text = errorText(error);
      setProgress(Number(progressBar.value), `The update failed: ${text}`);
      progress.classList.add('failed');
      ctx.messages.error(
        error instanceof ApiError && error.code === 'update_in_progress'
          ? text
          : `The update failed: ${text}`,
      );
    }
  }

  function startPolling(): void {
    stopPolling();
    poll = setInterval(() => {
      ctx.api
        .json<UpdateStatus>('/api/settings/update-status')
        .then((status) => {
          if (!poll) return;
          if (status.state === 'downloading')
            setProgress(status.percent, `Downloading… ${Math.floor(status.percent)} %`);
          else if (status.state === 'verifying') setProgress(status.percent, 'Checking the download…');
          else if (status.state === 'installing') setProgress(100, 'Installing…');
          else if (status.state === 'failed' && status.error)
            setProgress(status.percent, `The update failed: ${status.error}`);
        })
        .catch(() => undefined); // the install request itself reports failures
    }, POLL_MS);
  }

  function stopPolling(): void {
    clearInterval(poll);
    poll = undefined;
  }

  function setProgress(percent: number, text: string): void {
    const value = Math.max(0, Math.min(100, Math.round(percent)));
    progressBar.value = value;
    progressBar.setAttribute('aria-valuenow', String(value));
    progressText.textContent = `${value} % — ${text}`;
  }

  return stopPolling;
};
