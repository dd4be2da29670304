import DOMPurify from 'dompurify';
import { marked } from 'marked';
import type { InstallAnswer, UpdateCheck, UpdateStatus } from '../../server/contract/updates.js';
import { ApiError } from '../api.js';
import { confirmDialog } from '../confirm.js';
import type { View } from '../context.js';
import { actionButton, card, h, replace, viewHeading } from '../dom.js';
import { formatAgo } from '../format.js';
import { errorBox } from '../ui/section.js';

const POLL_MS = 400;
const HEALTH_MS = 1000;
/** How long the page waits for the updated server before saying it has not come back. */
const RECONNECT_LIMIT_MS = 5 * 60_000;

/** Release notes are markdown from the release source: rendered, then sanitised before use. */
export function renderNotes(markdown: string): DocumentFragment {
  const html = marked.parse(markdown, { async: false, gfm: true });
  const clean = DOMPurify.sanitize(html, { RETURN_DOM_FRAGMENT: true });
  // Links open outside the settings window.
  clean.querySelectorAll('a').forEach((link) => {
    link.setAttribute('target', '_blank');
    link.setAttribute('rel', 'noopener noreferrer');
  });
  // Every picture says what it is, even when the notes' author gave it no words.
  clean.querySelectorAll('img').forEach((image) => {
    if (!image.getAttribute('alt')) image.setAttribute('alt', 'Picture from the release notes');
  });
  return clean;
}

/**
 * Updates: shows what the server knows when the section opens (it asks the release source at most
 * once a day, and only for an Admin); "Check now" asks again (at most every 10 minutes); install
 * (Admin) after a confirmation, one progress figure, then the page waits for Melon to come back and
 * says which version it runs.
 */
export const updatesView: View = (ctx, root) => {
  const isAdmin = ctx.session.role === 'Admin';
  let poll: ReturnType<typeof setInterval> | undefined;
  let health: ReturnType<typeof setTimeout> | undefined;
  let gone = false;
  const result = h('div', {
    class: 'update-result',
    testid: 'update-result',
    attrs: { 'aria-live': 'polite' },
  });
  const progressBar = h('progress', {
    testid: 'update-progress',
    attrs: { max: 100, value: 0, 'aria-labelledby': 'update-percent' },
  });
  const progressText = h('span', {
    class: 'progress-text',
    testid: 'update-percent',
    attrs: { id: 'update-percent' },
  });
  const progress = h(
    'div',
    { class: 'update-progress', testid: 'update-progress-box' },
    progressBar,
    progressText,
  );
  const outcome = h('div', { testid: 'update-outcome', attrs: { role: 'status' } });
  progress.hidden = true;

  let lastInfo: UpdateCheck | null = null;
  const check = actionButton('Check now', 'update-check', () => runCheck(true), 'button');
  const where = h('p', { class: 'muted', testid: 'update-where' });
  const running = h('p', { testid: 'update-running' });
  check.hidden = !isAdmin;
  const daily = h('input', {
    testid: 'update-daily',
    attrs: { type: 'checkbox', role: 'switch' },
    on: { change: () => void setDaily(daily.checked) },
  });
  const dailyNote = h('small', { class: 'muted', testid: 'update-daily-note' });
  const dailySwitch = h(
    'label',
    { class: 'check' },
    daily,
    h('span', { text: 'Look for new versions once a day' }),
    dailyNote,
  );
  dailySwitch.hidden = !isAdmin;

  replace(
    root,
    viewHeading('Updates'),
    card('Melon', running, where, result, progress, outcome, check, dailySwitch),
  );

  async function setDaily(on: boolean): Promise<void> {
    daily.disabled = true;
    try {
      const answer = await ctx.api.json<{ Schedule: UpdateCheck['Schedule']; ScheduleLocked: boolean }>(
        '/api/settings/update-check',
        { method: 'POST', json: { schedule: on ? 'daily' : 'off' } },
      );
      if (gone) return;
      if (lastInfo) describe({ ...lastInfo, ...answer });
      ctx.messages.info(
        on ? 'Melon will look for new versions once a day.' : 'Melon will look only when you ask.',
      );
    } catch (error) {
      ctx.messages.error(error);
      if (lastInfo) describe(lastInfo);
    }
  }

  async function showRunning(): Promise<void> {
    try {
      const response = await fetch('/api/health', { cache: 'no-store' });
      const body = (await response.json()) as { version?: unknown };
      if (!gone && typeof body.version === 'string') running.textContent = `Running Melon ${body.version}.`;
    } catch {
      // The check's answer names the version too.
    }
  }

  function describe(info: UpdateCheck): void {
    lastInfo = info;
    daily.checked = info.Schedule === 'daily';
    daily.disabled = info.ScheduleLocked;
    dailyNote.textContent = info.ScheduleLocked
      ? 'Turned off where Melon runs (MELON_UPDATE_CHECK=off).'
      : 'Off: Melon asks only when you press Check now.';
    const schedule =
      info.Schedule === 'daily'
        ? `Melon looks for new versions at ${info.Source} at most once a day.`
        : `Melon looks for new versions at ${info.Source} only when an admin asks.`;
    const last = info.CheckedAt ? ` Last checked ${formatAgo(info.CheckedAt)}.` : ' Not checked yet.';
    where.textContent = schedule + last;
  }

  async function runCheck(refresh = false): Promise<void> {
    replace(result, h('p', { class: 'muted', testid: 'update-message', text: 'Checking for updates…' }));
    try {
      const info = await ctx.api.json<UpdateCheck>(
        `/api/settings/check-for-updates${refresh ? '?refresh=true' : ''}`,
      );
      if (gone) return;
      ctx.setUpdateBadge(info.UpdateAvailable ? info.LatestVersion : null);
      running.textContent = `Running Melon ${info.CurrentVersion}.`;
      describe(info);
      if (info.LastCheckFailed && !info.UpdateAvailable) {
        offline();
        return;
      }
      drawResult(info);
    } catch (error) {
      if (gone) return;
      if (!(error instanceof ApiError) || error.code !== 'update_check_failed') throw error;
      offline();
    }
  }

  /** A calm line, not an error block: being offline is normal for a home server. */
  function offline(): void {
    replace(
      result,
      h('p', {
        class: 'muted',
        testid: 'update-message',
        text: "Couldn't check just now; Melon will try again tomorrow.",
      }),
    );
  }

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
      h('h2', { text: "What's new" }),
      notes,
      isAdmin
        ? actionButton(
            `Install ${info.LatestVersion}`,
            'update-install',
            () => install(info),
            'button primary',
          )
        : h('p', { class: 'muted', text: 'Ask an admin to install it.' }),
    );
  }

  async function install(info: UpdateCheck): Promise<void> {
    const ok = await confirmDialog(
      `Install Melon ${info.LatestVersion}?`,
      'Melon downloads the new version, checks it and restarts. Music stops for a moment; this page reconnects by itself.',
      'Install',
      false,
    );
    if (!ok) return;
    replace(outcome);
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
      stopPolling();
      if (answer.status === 'up_to_date') {
        progress.hidden = true;
        replace(
          outcome,
          h('p', { class: 'ok-text', testid: 'update-done', text: 'Melon is already up to date.' }),
        );
        return;
      }
      setProgress(100, `Installing Melon ${answer.version}. Waiting for Melon to restart…`);
      ctx.messages.info(`Installing Melon ${answer.version}…`);
      waitForRestart(info.CurrentVersion, answer.version, Date.now());
    } catch (error) {
      stopPolling();
      progress.classList.add('failed');
      setProgress(Number(progressBar.value), 'The update failed.');
      replace(
        outcome,
        errorBox(
          error,
          'update-install',
          error instanceof ApiError && error.code === 'update_in_progress' ? null : () => void install(info),
        ),
      );
    }
  }

  /** Asks /api/health until Melon answers with the new version (or clearly has not updated). */
  function waitForRestart(previous: string, target: string, since: number): void {
    let wentDown = false;
    const attempt = async () => {
      if (gone) return;
      let version: string | null;
      try {
        const response = await fetch('/api/health', { cache: 'no-store' });
        version = response.ok ? ((await response.json()) as { version: string }).version : null;
      } catch {
        version = null;
      }
      if (version === null) wentDown = true;
      if (version === target) {
        finish('ok', `Updated to ${target}.`);
        ctx.setUpdateBadge(null);
        return;
      }
      if (version !== null && wentDown) {
        finish(
          'error',
          `Melon restarted but still runs ${version}: the installer did not finish. Its log on the server says why.`,
        );
        return;
      }
      if (Date.now() - since > RECONNECT_LIMIT_MS) {
        finish(
          'error',
          `Melon has not come back with ${target} after 5 minutes. Check the computer it runs on.`,
        );
        return;
      }
      setProgress(
        100,
        version === null
          ? `Melon is restarting with ${target}…`
          : `Installing Melon ${target} (still ${previous})…`,
      );
      health = setTimeout(() => void attempt(), HEALTH_MS);
    };
    health = setTimeout(() => void attempt(), HEALTH_MS);
  }

  function finish(kind: 'ok' | 'error', text: string): void {
    progress.hidden = kind === 'ok';
    if (kind === 'error') progress.classList.add('failed');
    replace(
      outcome,
      h('p', {
        class: kind === 'ok' ? 'ok-text' : 'error-text',
        testid: kind === 'ok' ? 'update-done' : 'update-not-done',
        text,
      }),
    );
    if (kind === 'ok') void runCheck();
  }

  function startPolling(): void {
    stopPolling();
    poll = setInterval(() => {
      ctx.api
        .json<UpdateStatus>('/api/settings/update-status')
        .then((status) => {
          if (!poll) return;
          if (status.state === 'downloading') setProgress(status.percent, 'Downloading');
          else if (status.state === 'verifying') setProgress(status.percent, 'Checking the download');
          else if (status.state === 'installing') setProgress(100, 'Installing');
        })
        .catch(() => undefined); // the install request itself reports failures
    }, POLL_MS);
  }

  function stopPolling(): void {
    clearInterval(poll);
    poll = undefined;
  }

  /** One figure: the bar, and its words with the percentage once. */
  function setProgress(percent: number, text: string): void {
    const value = Math.max(0, Math.min(100, Math.floor(percent)));
    progressBar.value = value;
    const words = value > 0 && value < 100 ? `${text}: ${value} %` : text;
    progressText.textContent = words;
    progressBar.setAttribute('aria-valuetext', words);
  }

  void showRunning();
  void runCheck();
  return () => {
    gone = true;
    stopPolling();
    clearTimeout(health);
  };
};
