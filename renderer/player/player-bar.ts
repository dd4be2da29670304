/**
 * The player at the bottom of every view: cover, title and artist, seek bar, the buttons, volume,
 * shuffle and repeat, and the queue. Built once and updated in place, so a control keeps the focus
 * while the music plays. Space, the arrows (seek, volume) work anywhere but in a field.
 */
import { clickButton, h, replace, srOnly } from '../dom.js';
import { hrefOf } from '../route.js';
import { icon, type IconName } from './icons.js';
import type { Player } from './player.js';
import type { RepeatMode } from './queue.js';

const REPEAT_NEXT: Record<RepeatMode, RepeatMode> = { off: 'all', all: 'one', one: 'off' };
const REPEAT_WORDS: Record<RepeatMode, string> = {
  off: 'Repeat: off',
  all: 'Repeat: all',
  one: 'Repeat: this track',
};
const SEEK_STEP_MS = 10_000;
const VOLUME_STEP = 0.1;

/** `3:07`, `1:02:45`. */
export function clock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const seconds = String(total % 60).padStart(2, '0');
  const minutes = Math.floor(total / 60);
  if (minutes < 60) return `${minutes}:${seconds}`;
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}:${seconds}`;
}

const button = (testid: string, label: string, glyph: IconName, onClick: () => void) =>
  h(
    'button',
    {
      class: 'player-button',
      testid,
      attrs: { type: 'button', 'aria-label': label, title: label },
      on: { click: onClick },
    },
    icon(glyph),
  );

export function playerBar(player: Player, root: HTMLElement): () => void {
  const cover = h('img', { class: 'player-cover', testid: 'player-cover', attrs: { alt: '' } });
  const title = h('a', { class: 'player-title', testid: 'player-title' });
  const artist = h('span', { class: 'player-artist', testid: 'player-artist' });
  const toggle = button('player-toggle', 'Play', 'play', () => player.toggle());
  toggle.classList.add('player-toggle');
  const previous = button('player-previous', 'Previous', 'previous', () => player.previous());
  const next = button('player-next', 'Next', 'next', () => player.next());
  const seek = h('input', {
    class: 'player-seek',
    testid: 'player-seek',
    attrs: { type: 'range', min: 0, max: 0, step: 1000, value: 0, 'aria-label': 'Seek' },
  });
  seek.addEventListener('input', () => player.seek(Number(seek.value)));
  const elapsed = h('span', { class: 'player-time', testid: 'player-elapsed', text: '0:00' });
  const total = h('span', { class: 'player-time', testid: 'player-duration', text: '0:00' });
  const volume = h('input', {
    class: 'player-volume',
    testid: 'player-volume',
    attrs: { type: 'range', min: 0, max: 100, step: 5, value: 100, 'aria-label': 'Volume' },
  });
  volume.addEventListener('input', () => player.setVolume(Number(volume.value) / 100));
  const shuffle = button('player-shuffle', 'Shuffle', 'shuffle', () =>
    player.setShuffle(!player.queue.state.shuffle),
  );
  const repeat = button('player-repeat', REPEAT_WORDS.off, 'repeat', () =>
    player.setRepeat(REPEAT_NEXT[player.queue.repeat]),
  );
  const queueList = h('ol', { class: 'queue-list', testid: 'queue-list' });
  const queuePanel = h(
    'div',
    { class: 'queue-panel', testid: 'queue-panel', attrs: { id: 'player-queue', hidden: true } },
    h(
      'div',
      { class: 'queue-head' },
      h('h2', { text: 'Queue' }),
      clickButton('button small', 'queue-clear', 'Clear queue', () => player.clear()),
    ),
    queueList,
  );
  const queueToggle = h('button', {
    class: 'button small player-queue-toggle',
    testid: 'player-queue-toggle',
    text: 'Queue',
    attrs: { type: 'button', 'aria-expanded': 'false', 'aria-controls': 'player-queue' },
    on: {
      click: () => {
        queuePanel.hidden = !queuePanel.hidden;
        queueToggle.setAttribute('aria-expanded', String(!queuePanel.hidden));
      },
    },
  });
  const idle = h('p', {
    class: 'player-idle muted',
    testid: 'player-idle',
    text: 'Nothing is playing. Pick an album in Listen and press Play.',
  });
  const nowPlaying = h(
    'div',
    { class: 'player-now' },
    cover,
    h('div', { class: 'player-names' }, title, artist),
  );
  const controls = h(
    'div',
    { class: 'player-controls' },
    h('div', { class: 'player-buttons' }, shuffle, previous, toggle, next, repeat),
    h('div', { class: 'player-progress' }, elapsed, seek, total),
  );
  const extras = h('div', { class: 'player-extras' }, volume, queueToggle);
  replace(root, player.audio, idle, nowPlaying, controls, extras, queuePanel);

  let queueSignature = '';
  const update = (): void => {
    const track = player.current;
    const { tracks, index, shuffle: shuffled, repeat: mode } = player.queue.state;
    root.classList.toggle('player-empty', !track);
    idle.hidden = track !== null;
    nowPlaying.hidden = track === null;
    for (const control of [toggle, previous, next, seek]) control.disabled = track === null;
    if (track) {
      title.textContent = track.name;
      title.href = track.album ? hrefOf('listen', { album: track.album.id }) : hrefOf('listen');
      artist.textContent = [track.artists.map((a) => a.name).join(', '), track.album?.name]
        .filter(Boolean)
        .join(' · ');
    }
    if (player.cover) cover.src = player.cover;
    else cover.removeAttribute('src');
    const label = player.playing ? 'Pause' : 'Play';
    toggle.setAttribute('aria-label', label);
    toggle.title = label;
    const glyph: IconName = player.playing ? 'pause' : 'play';
    if (toggle.dataset.glyph !== glyph) {
      toggle.dataset.glyph = glyph;
      replace(toggle, icon(glyph));
    }
    const duration = player.durationMs();
    const position = Math.min(player.positionMs(), duration || Infinity);
    seek.max = String(duration);
    if (document.activeElement !== seek) seek.value = String(position);
    seek.setAttribute('aria-valuetext', `${clock(position)} of ${clock(duration)}`);
    elapsed.textContent = clock(position);
    total.textContent = clock(duration);
    if (document.activeElement !== volume) volume.value = String(Math.round(player.audio.volume * 100));
    shuffle.setAttribute('aria-pressed', String(shuffled));
    repeat.setAttribute('aria-label', REPEAT_WORDS[mode]);
    repeat.title = REPEAT_WORDS[mode];
    repeat.dataset.mode = mode;
    queueToggle.textContent = tracks.length ? `Queue (${tracks.length})` : 'Queue';
    const signature = `${index}|${tracks.map((t) => t.id).join(',')}`;
    if (signature !== queueSignature) {
      queueSignature = signature;
      drawQueue(queueList, player, tracks, index);
    }
  };

  const closeQueue = (): void => {
    if (queuePanel.hidden) return;
    const hadFocus = queuePanel.contains(document.activeElement);
    queuePanel.hidden = true;
    queueToggle.setAttribute('aria-expanded', 'false');
    if (hadFocus) queueToggle.focus();
  };
  window.addEventListener('hashchange', closeQueue);
  const onKey = (event: KeyboardEvent): void => {
    if (event.key === 'Escape' && !queuePanel.hidden) {
      closeQueue();
      return;
    }
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    if (typingIn(event.target) || !player.current) return;
    const actions: Record<string, () => void> = {
      ' ': () => player.toggle(),
      ArrowLeft: () => player.seek(player.positionMs() - SEEK_STEP_MS),
      ArrowRight: () => player.seek(player.positionMs() + SEEK_STEP_MS),
      ArrowUp: () => player.setVolume(player.audio.volume + VOLUME_STEP),
      ArrowDown: () => player.setVolume(player.audio.volume - VOLUME_STEP),
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };
  document.addEventListener('keydown', onKey);
  const stop = player.onChange(update);
  update();
  return () => {
    stop();
    document.removeEventListener('keydown', onKey);
    window.removeEventListener('hashchange', closeQueue);
  };
}

/** Fields, and controls that Space or the arrows already work (buttons, links, sliders, menus). */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return ['INPUT', 'TEXTAREA', 'SELECT', 'BUTTON', 'A', 'SUMMARY'].includes(target.tagName);
}

function drawQueue(
  list: HTMLElement,
  player: Player,
  tracks: readonly { id: string; name: string; artists: { name: string }[] }[],
  index: number,
): void {
  replace(
    list,
    ...tracks.map((track, i) =>
      h(
        'li',
        {
          class: i === index ? 'queue-item current' : 'queue-item',
          testid: 'queue-item',
          attrs: { 'aria-current': i === index ? 'true' : null },
        },
        h(
          'button',
          {
            class: 'queue-play',
            attrs: { type: 'button' },
            on: { click: () => player.jump(i) },
          },
          srOnly('Play '),
          h('span', { class: 'queue-name', text: track.name }),
          h('span', { class: 'queue-artist muted', text: track.artists.map((a) => a.name).join(', ') }),
        ),
        h('button', {
          class: 'button small',
          text: '↑',
          testid: 'queue-up',
          attrs: { type: 'button', 'aria-label': `Move ${track.name} up`, disabled: i === 0 },
          on: { click: () => player.move(i, i - 1) },
        }),
        h('button', {
          class: 'button small',
          text: '↓',
          testid: 'queue-down',
          attrs: {
            type: 'button',
            'aria-label': `Move ${track.name} down`,
            disabled: i === tracks.length - 1,
          },
          on: { click: () => player.move(i, i + 1) },
        }),
        h('button', {
          class: 'button small',
          text: 'Remove',
          testid: 'queue-remove',
          attrs: { type: 'button', 'aria-label': `Remove ${track.name} from the queue` },
          on: { click: () => player.remove(i) },
        }),
      ),
    ),
  );
}
