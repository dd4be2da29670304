import { svg } from './dom.js';

/**
 * Charts as inline SVG built with DOM calls: no library, no inline styles (the CSP forbids them),
 * colours come from styles/ through classes.
 */
/** An empty chart of `width`×`height` user units, named `title` for screen readers and tooltips. */
function chartFrame(
  kind: 'bar-chart' | 'line-chart',
  width: number,
  height: number,
  testid: string,
  title: string,
): SVGSVGElement {
  const chart = svg('svg', {
    viewBox: `0 0 ${width} ${height}`,
    class: `chart ${kind}`,
    role: 'img',
    'aria-label': title,
    'data-testid': testid,
  });
  chart.appendChild(svg('title', {}, title));
  return chart;
}

export interface Bar {
  label: string;
  value: number;
  /** Shown at the end of the bar, e.g. `12 plays`. */
  text: string;
}

export function barChart(bars: Bar[], testid: string, title: string): SVGSVGElement {
  const rowHeight = 28;
  const labelWidth = 150;
  const width = 600;
  const barArea = width - labelWidth - 90;
  const height = Math.max(1, bars.length) * rowHeight + 8;
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const chart = chartFrame('bar-chart', width, height, testid, title);
  bars.forEach((bar, index) => {
    const y = index * rowHeight + 4;
    const barWidth = Math.max(2, (bar.value / max) * barArea);
    chart.appendChild(
      svg(
        'g',
        { class: 'bar', 'data-testid': 'chart-bar', 'data-label': bar.label, 'data-value': bar.value },
        svg(
          'text',
          { x: labelWidth - 8, y: y + 17, class: 'chart-label', 'text-anchor': 'end' },
          truncate(bar.label, 22),
        ),
        svg('rect', {
          x: labelWidth,
          y: y + 3,
          width: barWidth,
          height: rowHeight - 8,
          rx: 4,
          class: 'chart-bar',
        }),
        svg('text', { x: labelWidth + barWidth + 6, y: y + 17, class: 'chart-value' }, bar.text),
        svg('title', {}, `${bar.label}: ${bar.text}`),
      ),
    );
  });
  return chart;
}

export interface Point {
  label: string;
  value: number;
  text: string;
}

export function lineChart(points: Point[], testid: string, title: string, unit: string): SVGSVGElement {
  const width = 600;
  const height = 220;
  const pad = { left: 44, right: 12, top: 12, bottom: 28 };
  const innerWidth = width - pad.left - pad.right;
  const innerHeight = height - pad.top - pad.bottom;
  const max = Math.max(1, ...points.map((point) => point.value));
  const x = (index: number) =>
    pad.left + (points.length <= 1 ? innerWidth / 2 : (index / (points.length - 1)) * innerWidth);
  const y = (value: number) => pad.top + innerHeight - (value / max) * innerHeight;
  const chart = chartFrame('line-chart', width, height, testid, title);
  // Grid: zero, half and the maximum.
  for (const fraction of [0, 0.5, 1]) {
    const value = max * fraction;
    chart.appendChild(
      svg('line', { x1: pad.left, x2: width - pad.right, y1: y(value), y2: y(value), class: 'chart-grid' }),
    );
    chart.appendChild(
      svg(
        'text',
        { x: pad.left - 6, y: y(value) + 4, class: 'chart-axis', 'text-anchor': 'end' },
        `${axisNumber(value, max)}${unit}`,
      ),
    );
  }
  if (points.length > 0) {
    const coords = points.map((point, index) => `${x(index).toFixed(1)},${y(point.value).toFixed(1)}`);
    const baseline = y(0).toFixed(1);
    chart.appendChild(
      svg('polygon', {
        points: `${x(0).toFixed(1)},${baseline} ${coords.join(' ')} ${x(points.length - 1).toFixed(1)},${baseline}`,
        class: 'chart-area',
      }),
    );
    chart.appendChild(
      svg('polyline', { points: coords.join(' '), class: 'chart-line', 'data-testid': 'chart-line' }),
    );
    points.forEach((point, index) => {
      chart.appendChild(
        svg(
          'circle',
          { cx: x(index), cy: y(point.value), r: points.length > 60 ? 1.5 : 3, class: 'chart-point' },
          svg('title', {}, `${point.label}: ${point.text}`),
        ),
      );
    });
    const first = points[0]!;
    const last = points[points.length - 1]!;
    chart.appendChild(svg('text', { x: pad.left, y: height - 8, class: 'chart-axis' }, first.label));
    if (points.length > 1) {
      chart.appendChild(
        svg(
          'text',
          { x: width - pad.right, y: height - 8, class: 'chart-axis', 'text-anchor': 'end' },
          last.label,
        ),
      );
    }
  }
  return chart;
}

/** Whole numbers on a tall axis; one decimal on a short one, so 0.5 and 1 are not both "1". */
export function axisNumber(value: number, max: number): string {
  return max < 10 ? String(Math.round(value * 10) / 10) : String(Math.round(value));
}

function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}
