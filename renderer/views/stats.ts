import type { Chart } from '../charts.js';
import type { View } from '../context.js';
import { field, h, replace, segmented, viewHeading } from '../dom.js';
import { RANGE_KINDS, type RangeKind } from '../format.js';
import { setParams } from '../route.js';
import { loadHousehold, loadPerson, type DevicePlays, type Member, type Selection } from '../stats-data.js';
import { ObjectUrls } from '../ui/pictures.js';
import { errorBox, section } from '../ui/section.js';
import { renderHousehold, renderPerson, type Rendered } from './stats-render.js';
import { LazyCovers } from './top-list.js';
import { wallView } from './wall.js';

const RANGE_LABELS: Record<RangeKind, string> = {
  week: 'This week',
  month: 'This month',
  year: 'This year',
  all: 'All time',
  custom: 'Custom',
};
export const EVERYONE = 'everyone';

/**
 * Statistics: one person's or everyone's, for a range and (for one person) a device. Every member
 * may browse everyone whose statistics are visible. A wall display (Pass) opens on its wall view
 * (wall.ts), and from there on everyone. The selection lives in the address, so Back and reload
 * restore it.
 */
export const statsView: View = (ctx, root) => {
  const params = ctx.params;
  if (ctx.session.role === 'Pass' && !params.has('user')) return wallView(ctx, root);
  const range = (RANGE_KINDS as string[]).includes(params.get('range') ?? '')
    ? (params.get('range') as RangeKind)
    : 'month';
  const state = {
    user: params.get('user') ?? (ctx.session.role === 'Pass' ? EVERYONE : ctx.session.userId),
    range,
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    device: params.get('device') ?? '',
  };
  let members: Member[] = [];
  let charts: Chart[] = [];
  let urls = new ObjectUrls();
  let covers = new LazyCovers(ctx.api, urls);

  const person = h('select', { testid: 'stats-user' });
  const device = h('select', { testid: 'stats-device' });
  const from = h('input', { testid: 'stats-from', attrs: { type: 'date', value: state.from } });
  const to = h('input', { testid: 'stats-to', attrs: { type: 'date', value: state.to } });
  const custom = h('div', { class: 'custom-range' }, field('From', from), field('To', to));
  const deviceField = field('Device', device);
  const ranges = segmented(
    RANGE_KINDS.map((kind) => ({ kind, label: RANGE_LABELS[kind] })),
    'stats-range',
    (kind) => {
      state.range = kind;
      changed();
    },
    'Range',
  );
  const subtitle = h('p', { class: 'muted', testid: 'stats-subtitle' });
  const body = section<unknown>({
    testid: 'stats-body',
    label: 'statistics',
    load: () => load(),
    render: () => [],
  });
  // The body's content is drawn by load itself (charts need their element in the page first).

  person.addEventListener('change', () => {
    state.user = person.value;
    state.device = '';
    changed();
  });
  device.addEventListener('change', () => {
    state.device = device.value;
    changed();
  });
  for (const input of [from, to])
    input.addEventListener('change', () => {
      state.from = from.value;
      state.to = to.value;
      changed();
    });

  const controls = h(
    'div',
    { class: 'stats-controls' },
    field('Person', person),
    h('div', { class: 'field' }, h('span', { class: 'field-label', text: 'Range' }), ranges.element),
    custom,
    deviceField,
  );
  const content = h('div', { class: 'stats-content', testid: 'stats-content' });
  replace(
    root,
    viewHeading('Statistics'),
    h('section', { class: 'card' }, subtitle, controls),
    body.element,
    content,
  );

  function changed(): void {
    setParams('stats', {
      user: state.user === ctx.session.userId && ctx.session.role !== 'Pass' ? null : state.user,
      range: state.range === 'month' ? null : state.range,
      from: state.range === 'custom' ? state.from : null,
      to: state.range === 'custom' ? state.to : null,
      device: state.device || null,
    });
    void body.reload();
  }

  /** The newest load: an older one finishing later (a slower range) must not draw over it. */
  let generation = 0;

  async function load(): Promise<unknown> {
    const mine = ++generation;
    ranges.mark(state.range);
    custom.hidden = state.range !== 'custom';
    content.setAttribute('aria-busy', 'true');
    if (members.length === 0) {
      members = await ctx.api.json<Member[]>('/api/stats/members');
      if (mine !== generation) return null;
    }
    drawPeople();
    const selection: Selection = {
      range: state.range,
      from: state.from,
      to: state.to,
      device: state.device || undefined,
    };
    const everyone = state.user === EVERYONE;
    deviceField.hidden = everyone;
    const member = members.find((candidate) => candidate.id === state.user);
    subtitle.textContent = everyone
      ? 'Everyone in the household who shares their statistics.'
      : member?.self
        ? 'Your listening.'
        : `${member?.username ?? 'Someone'}’s listening.`;
    if (state.range === 'custom' && state.from && state.to && state.from > state.to) {
      destroyCharts();
      replace(
        content,
        h('p', {
          class: 'error-text',
          testid: 'stats-range-error',
          attrs: { role: 'alert' },
          text: 'The “From” date is after the “To” date.',
        }),
      );
      content.removeAttribute('aria-busy');
      return null;
    }
    try {
      if (everyone) {
        const stats = await loadHousehold(ctx.api, members, selection);
        if (mine !== generation) return null;
        draw(renderHousehold(stats));
      } else {
        const [stats, devices] = await Promise.all([
          loadPerson(ctx.api, state.user, selection),
          ctx.api.json<DevicePlays[]>('/api/stats/devices', { query: { userId: state.user } }),
        ]);
        if (mine !== generation) return null;
        drawDevices(devices);
        draw(renderPerson(stats, member?.username ?? 'this person', freshCovers()));
      }
    } catch (error) {
      if (mine !== generation) return null;
      destroyCharts();
      deviceField.hidden = true;
      replace(
        content,
        errorBox(error, 'stats', () => void body.reload()),
      );
    } finally {
      if (mine === generation) content.removeAttribute('aria-busy');
    }
    return null;
  }

  function draw(rendered: Rendered): void {
    destroyCharts();
    replace(content, ...rendered.nodes);
    charts = rendered.charts;
  }

  function destroyCharts(): void {
    for (const chart of charts) chart.destroy();
    charts = [];
  }

  /** Covers for a new drawing; the previous drawing's pictures are let go. */
  function freshCovers(): LazyCovers {
    covers.disconnect();
    urls.revokeAll();
    urls = new ObjectUrls();
    covers = new LazyCovers(ctx.api, urls);
    return covers;
  }

  function drawPeople(): void {
    replace(
      person,
      h('option', { text: 'Everyone', attrs: { value: EVERYONE } }),
      ...members.map((member) =>
        h('option', {
          text: member.self
            ? `${member.username} (you)`
            : member.visible
              ? member.username
              : `${member.username} (private)`,
          attrs: { value: member.id, disabled: !member.visible && member.id !== state.user },
        }),
      ),
    );
    if (!Array.from(person.options).some((option) => option.value === state.user))
      person.appendChild(h('option', { text: 'Someone else', attrs: { value: state.user } }));
    person.value = state.user;
  }

  function drawDevices(devices: DevicePlays[]): void {
    replace(
      device,
      h('option', { text: 'All devices', attrs: { value: '' } }),
      ...devices.map((entry) =>
        h('option', {
          // No count: the list is every device ever, and an all-time count beside a month's figures misleads.
          text: entry.device ?? 'Unknown device',
          // Plays without a device cannot be filtered on (an empty device means "all").
          attrs: { value: entry.device ?? '', disabled: entry.device === null },
        }),
      ),
    );
    if (state.device && !devices.some((entry) => entry.device?.toLowerCase() === state.device.toLowerCase()))
      device.appendChild(h('option', { text: `${state.device} (no plays)`, attrs: { value: state.device } }));
    device.value =
      devices.find((entry) => entry.device?.toLowerCase() === state.device.toLowerCase())?.device ??
      state.device;
  }

  void body.reload();
  return () => {
    generation++;
    body.cancel();
    destroyCharts();
    covers.disconnect();
    urls.revokeAll();
  };
};
