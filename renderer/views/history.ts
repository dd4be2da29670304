import type { ImportProgress, ImportStarted, MissingListens } from '../../server/contract/history.js';
import type { View, ViewContext } from '../context.js';
import { card, field, h, onSubmit, replace, submitButton, viewHeading } from '../dom.js';
import { formatDateTime } from '../format.js';
import { count } from '../plural.js';
import { IMPORT_TOO_LARGE } from '../problems.js';
import { listSection, section } from '../ui/section.js';
import { yearReview } from './year-review.js';
/** The server recognises the file from its content; a source is only a hint for odd files. */
const SOURCES = [
  { value: '', label: 'Recognise it from the file (ZIP, JSON or CSV)' },
  { value: 'listenbrainz', label: 'ListenBrainz export (ZIP, JSON lines or JSON)' },
  { value: 'lastfm', label: 'Last.fm or Libre.fm scrobbles (CSV)' },
  { value: 'spotify', label: "Spotify's my_spotify_data.zip or its JSON" },
];

/**
 * History: the year in review first (one listener's or the household's, for any year with plays),
 * then bringing listening history in (imports with their progress and report). A Pass account (a
 * wall display) imports nothing: it sees the household's year alone.
 */
export const historyView: View = (ctx, root) => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const review = yearReview(ctx);
  if (ctx.session.role === 'Pass') {
    replace(root, viewHeading('Year in review'), review.element);
    void review.reload();
    return () => review.dispose();
  }
  const past = listSection<ImportProgress>({
    testid: 'past-imports',
    label: 'past imports',
    load: () => ctx.api.json<ImportProgress[]>('/api/stats/import'),
    empty: 'No imports yet.',
    list: { class: 'past-imports' },
    item: pastImport,
  });
  const missing = section<MissingListens>({
    testid: 'missing',
    label: 'the listens missing from your library',
    load: () => ctx.api.json<MissingListens>('/api/stats/unmatched'),
    isEmpty: (m) => m.listens === 0,
    empty: 'Every imported listen found its track.',
    render: (m) =>
      h(
        'ul',
        { class: 'missing-listens' },
        ...m.groups.map((g) =>
          h('li', {
            testid: 'missing-group',
            text: `${count(g.listens, 'listen', 'listens')} of ${g.artist}${g.album ? ` — ${g.album}` : ''}`,
          }),
        ),
      ),
  });
  // A finished import may bring years with plays: the review is drawn again.
  const imported = () => {
    void review.reload();
    void past.reload();
    void missing.reload();
  };
  replace(
    root,
    viewHeading('History'),
    review.element,
    importCard(ctx, (t) => (timer = t), imported),
    card('Past imports', past.element),
    card('Missing from your library', missing.element),
  );
  void review.reload();
  void past.reload();
  void missing.reload();
  return () => {
    clearTimeout(timer);
    review.dispose();
  };
};

function importCard(
  ctx: ViewContext,
  keepTimer: (timer: ReturnType<typeof setTimeout>) => void,
  onDone: () => void,
): HTMLElement {
  const source = h(
    'select',
    { testid: 'import-source' },
    ...SOURCES.map((s) => h('option', { text: s.label, attrs: { value: s.value } })),
  );
  const file = h('input', { testid: 'import-file', attrs: { type: 'file', required: true } });
  const submit = submitButton('Import', 'import-submit');
  const report = h('div', {
    class: 'import-report',
    testid: 'import-report',
    attrs: { 'aria-live': 'polite' },
  });
  // An Admin may import for another member.
  const member = h('select', { testid: 'import-member' }, h('option', { text: 'Me', attrs: { value: '' } }));
  if (ctx.session.role === 'Admin')
    void ctx.api
      .json<Array<{ id: string; username: string }>>('/api/users')
      .then((users) => {
        for (const u of users)
          if (u.id !== ctx.session.userId)
            member.append(h('option', { text: u.username, attrs: { value: u.id } }));
      })
      .catch(() => undefined);
  const form = h(
    'form',
    { class: 'import-form' },
    ctx.session.role === 'Admin' ? field('For', member) : null,
    field('From', source),
    field('File', file),
    submit,
  );
  onSubmit(form, submit, async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    const body = new FormData();
    if (source.value) body.set('source', source.value);
    if (member.value) body.set('userId', member.value);
    body.set('file', chosen);
    try {
      const { id } = await ctx.api.json<ImportStarted>('/api/stats/import', { method: 'POST', form: body });
      const poll = async () => {
        const progress = await ctx.api.json<ImportProgress>(`/api/stats/import/${id}`);
        showProgress(report, progress);
        if (progress.done) onDone();
        else keepTimer(setTimeout(() => void poll().catch((e: unknown) => ctx.messages.error(e)), 500));
      };
      await poll();
    } catch (error) {
      ctx.messages.error(error, { payload_too_large: IMPORT_TOO_LARGE });
    }
  });
  return card('Bring your history', form, report);
}

/** One past import: when, what it was read as, and its outcome. */
function pastImport(p: ImportProgress): HTMLElement {
  const when = formatDateTime(p.createdAt);
  const outcome =
    p.status === 'failed'
      ? `failed: ${p.error ?? ''}`
      : p.done
        ? `${p.matched} added, ${p.unmatched} not in the library, ${p.duplicates} already counted, ${p.refused} refused`
        : 'running';
  return h(
    'li',
    { testid: 'past-import' },
    h('strong', { text: when }),
    ` — ${p.takenAs ?? p.source}: ${outcome}`,
  );
}

function showProgress(report: HTMLElement, p: ImportProgress): void {
  const percent = p.bytesTotal > 0 ? Math.min(100, Math.floor((100 * p.bytesRead) / p.bytesTotal)) : 0;
  const state =
    p.status === 'failed' ? `Failed: ${p.error ?? ''}` : p.done ? 'Done' : `Importing… ${percent} %`;
  replace(
    report,
    h('p', { testid: 'import-status', text: state }),
    p.takenAs ? h('p', { class: 'muted', testid: 'import-taken-as', text: `Read as ${p.takenAs}` }) : null,
    p.done
      ? null
      : h('progress', {
          testid: 'import-progress',
          attrs: { max: '100', value: String(percent), 'aria-label': 'Import progress' },
        }),
    h(
      'dl',
      { class: 'import-figures' },
      ...(
        [
          ['Entries read', p.entriesRead],
          ['Added as plays', p.matched],
          ['Not in the library yet', p.unmatched],
          ['Already counted', p.duplicates],
          ['Refused', p.refused],
          ['Not music (podcasts)', p.ignored],
        ] as const
      ).flatMap(([label, value]) => [h('dt', { text: label }), h('dd', { text: String(value) })]),
    ),
    p.problems.length > 0
      ? h(
          'ul',
          { class: 'import-problems' },
          ...p.problems
            .slice(0, 10)
            .map((x) => h('li', { text: `Entry ${x.entry}${x.file ? ` (${x.file})` : ''}: ${x.reason}` })),
        )
      : null,
  );
}
