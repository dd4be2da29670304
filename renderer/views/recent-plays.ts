/**
 * Recent plays as people say them: grouped under "Today", "Yesterday" or the day's date, each with
 * its time ("19:56", "12 min ago" within the hour), ten at first and the rest behind "Show more".
 */
import type { RecentPlay } from '../stats-data.js';
import { h } from '../dom.js';

const FIRST = 10;
const LANG = document.documentElement.lang || 'en';
const relative = new Intl.RelativeTimeFormat(LANG, { numeric: 'auto' });

/** "Today", "Yesterday", "Saturday 4 April" (with the year when it is not this one). */
export function dayLabel(at: Date, now: Date): string {
  const day = (date: Date) => new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
  const days = Math.round((day(now) - day(at)) / 86_400_000);
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  return at.toLocaleDateString(LANG, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    ...(at.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
  });
}

export function timeLabel(at: Date, now: Date): string {
  const minutes = Math.floor((now.getTime() - at.getTime()) / 60_000);
  if (minutes >= 0 && minutes < 60) return minutes === 0 ? 'just now' : relative.format(-minutes, 'minute');
  return at.toLocaleTimeString(LANG, { hour: '2-digit', minute: '2-digit' });
}

export function recentPlays(
  plays: readonly RecentPlay[],
  names: (artists: RecentPlay['track']['artists']) => string,
  now = new Date(),
): HTMLElement {
  const list = h('div', { class: 'recent-days', testid: 'recent-plays' });
  let lastDay = '';
  let group: HTMLElement | null = null;
  plays.forEach((play, i) => {
    const at = new Date(play.playedAt);
    const day = dayLabel(at, now);
    if (day !== lastDay || !group) {
      lastDay = day;
      group = h('ul', { class: 'top-list' });
      list.append(h('h3', { class: 'recent-day', testid: 'recent-day', text: day }), group);
    }
    const item = h(
      'li',
      { testid: 'recent-plays-item', attrs: { hidden: i >= FIRST } },
      h('span', { class: 'top-name', text: play.track.name ?? 'unknown track' }),
      h('small', {
        class: 'muted',
        text: [names(play.track.artists), timeLabel(at, now), play.device ?? 'unknown device']
          .filter(Boolean)
          .join(' · '),
      }),
    );
    group.append(item);
  });
  if (plays.length > FIRST) {
    const more = h('button', {
      class: 'button small',
      testid: 'recent-more',
      text: 'Show more',
      attrs: { type: 'button' },
      on: {
        click: () => {
          list.querySelectorAll<HTMLElement>('[data-testid="recent-plays-item"]').forEach((item) => {
            item.hidden = false;
          });
          // A day whose plays were all hidden shows its heading again with them.
          list.querySelectorAll<HTMLElement>('.recent-day').forEach((heading) => (heading.hidden = false));
          more.remove();
        },
      },
    });
    // Headings of days with only hidden plays wait for "Show more" too.
    list.querySelectorAll<HTMLElement>('.recent-day').forEach((heading) => {
      const items = heading.nextElementSibling?.querySelectorAll<HTMLElement>('li') ?? [];
      heading.hidden = [...items].every((item) => item.hidden);
    });
    list.append(more);
  }
  return list;
}
