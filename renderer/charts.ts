import uPlot from 'uplot';
import { h } from './dom.js';
import { formatDuration, formatNumber, type Step } from './format.js';
import { plays as playsText } from './plural.js';

/**
 * Charts. The activity chart is uPlot (canvas, ~50 kB, no dependencies): it keeps a fixed text size
 * at every width, sizes its axes to their labels and is cheap to redraw. Its numbers are also in the
 * DOM as a table (hidden until "Show numbers"), for screen readers and for reading without a mouse.
 * Ranked lists are plain HTML bars with their values written out. Colours come from the CSS tokens.
 */

export interface ActivityPoint {
  start: string;
  plays: number;
  listeningMs: number;
}

/** A chart's bar: a step of a range, or an hour of the day (the year in review's hour chart). */
export type ChartStep = Step | 'hour';

const FONT_PX = 12;
const DAY_S = 86_400;
const HOUR_S = 3_600;
const STEP_S: Record<ChartStep, number> = { hour: HOUR_S, day: DAY_S, week: 7 * DAY_S, month: 31 * DAY_S };
const clockHour = (date: Date) => `${String(date.getHours()).padStart(2, '0')}:00`;
const PAGE_LANG = document.documentElement.lang || 'en';

/** The x axis: from half a step before the first bar to half a step after the last. */
function xRange(x: readonly number[], step: ChartStep): [number, number] {
  const half = STEP_S[step] / 2;
  if (x.length === 0) return [0, 2 * half];
  return [x[0]! - half, x[x.length - 1]! + half];
}
const font = (px = FONT_PX) => `${px}px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;

/** The step's name for labels: "Mon 3 Nov", "week of 3 Nov", "Nov 2026", "07:00". */
export function stepLabel(iso: string, step: ChartStep): string {
  const date = new Date(iso);
  if (step === 'hour') return clockHour(date);
  if (step === 'month') return date.toLocaleDateString('en-GB', { month: 'short', year: 'numeric' });
  const day = date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
  return step === 'week'
    ? `week of ${day}`
    : date.toLocaleDateString('en-GB', { weekday: 'short' }) + ' ' + day;
}

function token(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

export interface Chart {
  element: HTMLElement;
  destroy(): void;
}

/** Plays per step as bars, labelled with their values when there are few enough to read. */
export function activityChart(
  points: ActivityPoint[],
  step: ChartStep,
  title: string,
  testid: string,
): Chart {
  const total = points.reduce((sum, point) => sum + point.plays, 0);
  const canvasBox = h('div', { class: 'chart-canvas', attrs: { 'aria-hidden': 'true' } });
  const table = dataTable(points, step, testid);
  // The wrapper hides the table, not the table itself: tables ignore overflow, so a hidden one
  // would still widen the page.
  const tableBox = h(
    'div',
    { class: 'data-table-box visually-hidden', attrs: { id: `${testid}-table` } },
    table,
  );
  const toggle = h('button', {
    class: 'button small',
    testid: `${testid}-toggle`,
    text: 'Show numbers',
    attrs: { type: 'button', 'aria-expanded': 'false', 'aria-controls': `${testid}-table` },
  });
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    toggle.textContent = open ? 'Hide numbers' : 'Show numbers';
    tableBox.classList.toggle('visually-hidden', !open);
  });
  const element = h(
    'figure',
    { class: 'chart-figure', testid, attrs: { 'data-total': total, 'data-step': step } },
    h(
      'figcaption',
      { class: 'chart-caption' },
      h('span', { text: `${title} — ${playsText(total)}` }),
      toggle,
    ),
    canvasBox,
    tableBox,
  );

  const x = points.map((point) => Date.parse(point.start) / 1000);
  const y = points.map((point) => point.plays);
  const muted = token('--muted', '#5f6b66');
  const accent = token('--chart', token('--accent', '#1f7a44'));
  const grid = token('--border', '#dfe4e0');
  const text = token('--text', '#1d2321');
  const labelled = points.length <= 40;
  const plot = new uPlot(
    {
      width: 600,
      height: 240,
      legend: { show: false },
      cursor: { show: false },
      scales: {
        // Half a step on each side, so the first and last bars are whole and a single bar gets an
        // axis of its own step, not years around it.
        x: { time: true, range: () => xRange(x, step) },
        y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] },
      },
      axes: [
        {
          stroke: muted,
          font: font(),
          grid: { show: false },
          ticks: { stroke: grid },
          // Day bars get day ticks (never hours under them), hour bars clock hours; weeks and months keep uPlot's own.
          ...(step === 'day'
            ? {
                incrs: [DAY_S, 2 * DAY_S, 7 * DAY_S, 14 * DAY_S, 28 * DAY_S],
                values: (_u: uPlot, splits: number[]) =>
                  splits.map((v) =>
                    new Date(v * 1000).toLocaleDateString(PAGE_LANG, { weekday: 'short', day: 'numeric' }),
                  ),
              }
            : step === 'hour'
              ? {
                  incrs: [HOUR_S, 3 * HOUR_S, 6 * HOUR_S],
                  values: (_u: uPlot, splits: number[]) => splits.map((v) => clockHour(new Date(v * 1000))),
                }
              : {}),
        },
        {
          stroke: muted,
          font: font(),
          grid: { stroke: grid, width: 1 },
          ticks: { show: false },
          incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000],
          // Wide enough for the longest label, so "140" never reads "40".
          size: (_u, values) => Math.max(32, ...(values ?? []).map((v) => String(v).length * 8 + 16)),
          values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? formatNumber(v) : '')),
        },
      ],
      series: [
        {},
        {
          label: 'Plays',
          stroke: accent,
          fill: accent,
          width: 0,
          paths: uPlot.paths.bars!({ size: [0.7, 48, 1], align: 0 }),
          points: { show: false },
        },
      ],
      hooks: {
        draw: [
          (u) => {
            if (!labelled) return;
            const ctx = u.ctx;
            ctx.save();
            ctx.font = font(FONT_PX * uPlot.pxRatio);
            ctx.fillStyle = text;
            ctx.textAlign = 'center';
            ctx.textBaseline = 'bottom';
            y.forEach((value, i) => {
              if (!value) return;
              ctx.fillText(
                formatNumber(value),
                u.valToPos(x[i]!, 'x', true),
                u.valToPos(value, 'y', true) - 3 * uPlot.pxRatio,
              );
            });
            ctx.restore();
          },
        ],
      },
    },
    [x, y],
    canvasBox,
  );
  // What the axis shows, for people reading the numbers and for tests (the canvas cannot be read).
  const shown = xRange(x, step);
  element.dataset.axisFrom = new Date(shown[0] * 1000).toISOString();
  element.dataset.axisTo = new Date(shown[1] * 1000).toISOString();
  const observer = new ResizeObserver(() => {
    const width = Math.floor(canvasBox.clientWidth);
    if (width > 0 && width !== plot.width) plot.setSize({ width, height: 240 });
  });
  observer.observe(canvasBox);
  return {
    element,
    destroy: () => {
      observer.disconnect();
      plot.destroy();
    },
  };
}

function dataTable(points: ActivityPoint[], step: ChartStep, testid: string): HTMLTableElement {
  const body = h('tbody');
  for (const point of points) {
    body.appendChild(
      h(
        'tr',
        {},
        h('th', { text: stepLabel(point.start, step), attrs: { scope: 'row' } }),
        h('td', {
          testid: `${testid}-plays`,
          text: formatNumber(point.plays),
          attrs: { 'data-plays': point.plays },
        }),
        h('td', { text: formatDuration(point.listeningMs) }),
      ),
    );
  }
  return h(
    'table',
    { class: 'data-table', testid: `${testid}-table` },
    h('caption', { class: 'visually-hidden', text: 'Plays and listening time per ' + step }),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {
          text: { hour: 'Hour', day: 'Day', week: 'Week', month: 'Month' }[step],
          attrs: { scope: 'col' },
        }),
        h('th', { text: 'Plays', attrs: { scope: 'col' } }),
        h('th', { text: 'Listening time', attrs: { scope: 'col' } }),
      ),
    ),
    body,
  );
}

export interface Ranked {
  label: string;
  value: number;
  /** Written after the bar, e.g. "12 plays · 40 min". */
  text: string;
  detail?: string;
  /** Where the row leads (an album or artist in Listen). */
  href?: string;
}

/** A ranked list with proportional bars; every value is written out. */
export function rankedBars(rows: Ranked[], testid: string, label: string): HTMLElement {
  const max = Math.max(1, ...rows.map((row) => row.value));
  const list = h('ol', { class: 'ranked', testid, attrs: { 'aria-label': label } });
  for (const row of rows) {
    const bar = h('span', { class: 'ranked-bar', attrs: { 'aria-hidden': 'true' } });
    // CSSOM, not a style attribute: the CSP allows it. Nothing is drawn for 0: a stub would read as
    // "a few".
    bar.style.width = row.value > 0 ? `${Math.max(2, (row.value / max) * 100)}%` : '0';
    list.appendChild(
      h(
        'li',
        {
          class: 'ranked-row',
          testid: `${testid}-item`,
          attrs: { 'data-label': row.label, 'data-value': row.value },
        },
        h(
          'span',
          { class: 'ranked-label' },
          row.href
            ? h('a', { class: 'ranked-name', text: row.label, attrs: { href: row.href } })
            : h('span', { class: 'ranked-name', text: row.label }),
          row.detail ? h('small', { class: 'muted', text: row.detail }) : null,
        ),
        h('span', { class: 'ranked-track' }, bar),
        h('span', { class: 'ranked-value', text: row.text }),
      ),
    );
  }
  return list;
}

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** Plays per weekday (rows) and hour (columns); each cell's number is in the DOM, shade by level. */
export function heatmap(cells: number[][], testid: string): HTMLElement {
  const max = Math.max(1, ...cells.flat());
  const head = h('tr', {}, h('td', { class: 'heat-corner' }));
  for (let hour = 0; hour < 24; hour++) {
    head.appendChild(
      h(
        'th',
        { class: hour % 3 === 0 ? 'heat-hour' : 'heat-hour minor', attrs: { scope: 'col' } },
        hour % 3 === 0 ? String(hour) : h('span', { class: 'visually-hidden', text: String(hour) }),
      ),
    );
  }
  const body = h('tbody');
  cells.forEach((row, day) => {
    const tr = h('tr', {}, h('th', { class: 'heat-day', text: WEEKDAYS[day]!, attrs: { scope: 'row' } }));
    row.forEach((value, hour) => {
      const level = value === 0 ? 0 : Math.min(4, Math.ceil((value / max) * 4));
      const hours = `${String(hour).padStart(2, '0')}:00–${String((hour + 1) % 24).padStart(2, '0')}:00`;
      tr.appendChild(
        h(
          'td',
          {
            class: `heat-cell level-${level}`,
            attrs: { 'data-value': value, title: `${WEEKDAYS[day]!} ${hours}: ${playsText(value)}` },
          },
          h('span', { class: 'visually-hidden', text: formatNumber(value) }),
        ),
      );
    });
    body.appendChild(tr);
  });
  return h(
    'div',
    { class: 'heatmap-wrap' },
    h(
      'table',
      { class: 'heatmap', testid },
      h('caption', { class: 'visually-hidden', text: 'Plays per weekday and hour of the day' }),
      h('thead', {}, head),
      body,
    ),
    h(
      'p',
      { class: 'heat-legend muted' },
      'Fewer',
      ...[0, 1, 2, 3, 4].map((level) =>
        h('span', { class: `heat-cell level-${level}`, attrs: { 'aria-hidden': 'true' } }),
      ),
      'More plays',
    ),
  );
}
