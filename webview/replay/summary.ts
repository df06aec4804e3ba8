import { solvesByMoves, type Histogram, type RolloutSummary } from '../../src/core/rollouts';
import { h, num, replace, svg } from './dom';

const WIDTH = 240;
const HEIGHT = 72;

/** Solve rate, groups, mean moves, reward range, and the histograms as SVG. */
export function renderSummary(target: HTMLElement, s: RolloutSummary): void {
  const rate = `${(s.solveRate * 100).toFixed(1)}%`;
  replace(
    target,
    h(
      'div',
      { class: 'stats' },
      stat('rollouts', String(s.rollouts)),
      stat('groups', s.stepUnknownGroups ? `${s.groups} (${s.stepUnknownGroups} step unknown)` : String(s.groups)),
      stat('zero-advantage groups', String(s.zeroAdvantageGroups)),
      stat('solve rate', rate),
      stat('solved / partial / unsolved / no move', `${s.solved} / ${s.partial} / ${s.lost} / ${s.noPlay}`),
      s.packMoves ? stat('mean moves', num(s.meanMoves, 2)) : stat('mean tool calls', num(s.meanToolCalls, 2)),
      stat('reward mean (min…max)', s.reward ? `${num(s.reward.mean)} (${num(s.reward.min, 2)}…${num(s.reward.max, 2)})` : '–'),
    ),
    chart('Reward', rewardBars(s.rewardHistogram)),
    // Moves to solve only where a pack defines moves: a tool call is not a move.
    s.packMoves
      ? chart(
          'Moves to solve',
          solvesByMoves(s.movesToSolve).map((count, i) => ({ label: String(i + 1), count, title: `solved in ${i + 1} moves: ${count}` })),
        )
      : null,
  );
}

function stat(label: string, value: string): HTMLElement {
  return h('div', { class: 'stat' }, h('div', { class: 'stat-value' }, value), h('div', { class: 'stat-label' }, label));
}

interface Bar {
  label: string;
  count: number;
  title: string;
}

function rewardBars(hist: Histogram): Bar[] {
  return hist.counts.map((count, i) => {
    const from = hist.start + i * hist.width;
    return {
      label: i === 0 ? num(from, 1) : i === hist.counts.length - 1 ? num(from + hist.width, 1) : '',
      count,
      title: `reward ${num(from, 2)} to ${num(from + hist.width, 2)}: ${count}`,
    };
  });
}

const GUTTER = 28;

/** Labels at the chart's edges hug them so a leading minus sign is not clipped. */
const anchor = (i: number, n: number) => (n > 6 && i === 0 ? 'start' : n > 6 && i === n - 1 ? 'end' : 'middle');
const edgeX = (i: number, n: number, width: number) =>
  GUTTER + (n > 6 && i === 0 ? 0 : n > 6 && i === n - 1 ? WIDTH : i * width + width / 2);

/** Bars over a count axis (0 and the largest count); few bars also carry their count on top. */
function chart(title: string, bars: Bar[]): HTMLElement {
  const max = Math.max(1, ...bars.map((b) => b.count));
  const width = WIDTH / Math.max(1, bars.length);
  const top = 10;
  const plot = HEIGHT - 14 - top;
  const labelled = bars.length <= 8;
  const shapes = bars.map((b, i) => {
    const height = (b.count / max) * plot;
    const y = top + plot - height;
    return svg(
      'g',
      {},
      svg('rect', { class: 'bar', x: GUTTER + i * width + 1, y, width: Math.max(1, width - 2), height }, svg('title', {}, b.title)),
      labelled && b.count
        ? svg('text', { class: 'axis bar-count', x: GUTTER + i * width + width / 2, y: y - 2, 'text-anchor': 'middle' }, String(b.count))
        : null,
      b.label
        ? svg('text', { class: 'axis', x: edgeX(i, bars.length, width), y: HEIGHT - 2, 'text-anchor': anchor(i, bars.length) }, b.label)
        : null,
    );
  });
  const axis = svg(
    'g',
    { class: 'count-axis' },
    svg('line', { class: 'axis-line', x1: GUTTER - 2, x2: GUTTER - 2, y1: top, y2: top + plot }),
    svg('text', { class: 'axis', x: GUTTER - 4, y: top + 4, 'text-anchor': 'end' }, String(max)),
    svg('text', { class: 'axis', x: GUTTER - 4, y: top + plot, 'text-anchor': 'end' }, '0'),
  );
  const full = GUTTER + WIDTH;
  return h(
    'figure',
    { class: 'chart' },
    h('figcaption', {}, `${title} (rollouts)`),
    svg(
      'svg',
      {
        viewBox: `0 0 ${full} ${HEIGHT}`,
        width: full,
        height: HEIGHT,
        role: 'img',
        'aria-label': `${title} histogram: ${bars.map((b) => b.title).join('; ')}`,
      },
      axis,
      ...shapes,
    ),
  );
}
