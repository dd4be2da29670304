import type { MusicFolder, ScanStatus } from '../../server/contract/library.js';
import type { View } from '../context.js';
import { actionButton, card, h, replace, viewHeading } from '../dom.js';
import { listSection, section } from '../ui/section.js';
import { scanSummary } from '../wording.js';

/** While a scan runs, the page asks for its progress this often. */
const POLL_MS = 2000;

const FOLDER_WORDS: Record<MusicFolder['status'], string> = {
  ok: 'Ready',
  missing: 'Not found. Is the disk or network share connected?',
  unreadable: 'Melon is not allowed to read it.',
};

/**
 * Music library (Admin): the music folders Melon reads and whether each is there, and the files it
 * could not read with the reason, so a household can fix a broken file or a disk that is not mounted.
 */
export const libraryView: View = (ctx, root) => {
  let timer: ReturnType<typeof setTimeout> | undefined;

  const folders = listSection<MusicFolder>({
    testid: 'library-folders',
    label: 'music folders',
    load: async () => (await ctx.api.json<{ musicFolders: MusicFolder[] }>('/api/server-info')).musicFolders,
    empty: 'No music folder is set. Set MELON_LIBRARY and restart Melon.',
    list: { class: 'folder-list', testid: 'library-folder-list' },
    item: (folder) =>
      h(
        'li',
        { class: `folder folder-${folder.status}`, testid: `folder-${folder.status}` },
        h('span', { class: 'folder-path', text: folder.path }),
        h('span', { class: 'folder-status', text: FOLDER_WORDS[folder.status] }),
      ),
  });

  const problems = section<ScanStatus>({
    testid: 'library-problems',
    label: 'the files Melon could not read',
    load: async () => {
      const status = await ctx.api.json<ScanStatus>('/api/library/scan');
      clearTimeout(timer);
      if (status.running) timer = setTimeout(() => void problems.reload(), POLL_MS);
      return status;
    },
    render: (status) => [
      h('p', {
        class: 'muted',
        testid: 'library-scan-state',
        attrs: { 'aria-live': 'polite' },
        text: scanSummary(status),
      }),
      status.problemCount === 0
        ? h('p', { testid: 'library-problems-none', text: 'Melon could read every file.' })
        : h(
            'ul',
            { class: 'problem-list', testid: 'library-problem-list' },
            ...status.problems.map((problem) =>
              h(
                'li',
                { class: 'problem' },
                h('span', { class: 'problem-path', text: problem.path }),
                h('span', { class: 'problem-reason muted', text: problem.reason }),
              ),
            ),
          ),
      status.problemCount > status.problems.length
        ? h('p', {
            class: 'muted',
            text: `The first ${status.problems.length} are shown, of ${status.problemCount}.`,
          })
        : '',
    ],
  });

  const rescan = actionButton('Look for changes now', 'library-rescan', async () => {
    try {
      await ctx.api.json('/api/library/scan', { method: 'POST' });
      await Promise.all([problems.reload(), folders.reload()]);
    } catch (error) {
      ctx.messages.error(error);
    }
  });

  replace(
    root,
    viewHeading('Music library'),
    card('Music folders', folders.element),
    card('Files Melon could not read', problems.element, rescan),
  );
  void folders.reload();
  void problems.reload();
  return () => {
    clearTimeout(timer);
    folders.cancel();
    problems.cancel();
  };
};
