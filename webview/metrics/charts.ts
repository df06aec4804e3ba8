import uPlot from 'uplot';
import { movingAverage } from '../../src/core/metrics/movingAverage';
import type { JobCurves } from '../../src/shared/metrics';

/** Per-job colours from the theme's chart palette, read when drawing so a theme change applies. */
export function jobColors(): string[] {
  const style = getComputedStyle(document.body);
  const fallback = ['#3794ff', '#d18616', '#89d185', '#b180d7', '#f14c4c', '#cca700'];
  return ['blue', 'orange', 'green', 'purple', 'red', 'yellow'].map(
    (c, i) => style.getPropertyValue(`--vscode-charts-${c}`).trim() || fallback[i],
  );
}

function themeColor(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

export interface ChartSpec {
  title: string;
  keys: string[];
  /** The reward chart: each job's raw line thin, its moving average thick. */
  smooth?: number;
  /** Keys shown as percentages on a right-hand axis. */
  percentKeys?: string[];
  onPick?: (job: number, step: number) => void;
  /** Steps to mark with a vertical line and a short label (run health findings). */
  markers?: { step: number; label: string }[];
}

/** Draws each marker as a dashed vertical line across the plot with its label at the top, in the theme's warning colour. */
function markerPlugin(markers: readonly { step: number; label: string }[]): uPlot.Plugin {
  return {
    hooks: {
      draw: (u: uPlot) => {
        const color = themeColor('--vscode-editorWarning-foreground', '#cca700');
        const ctx = u.ctx;
        const ratio = devicePixelRatio || 1;
        ctx.save();
        ctx.strokeStyle = color;
        ctx.fillStyle = color;
        ctx.lineWidth = 1.5 * ratio;
        ctx.setLineDash([4 * ratio, 3 * ratio]);
        ctx.font = `${11 * ratio}px ${getComputedStyle(document.body).fontFamily || 'sans-serif'}`;
        for (const m of markers) {
          const x = Math.round(u.valToPos(m.step, 'x', true));
          if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) continue;
          ctx.beginPath();
          ctx.moveTo(x, u.bbox.top);
          ctx.lineTo(x, u.bbox.top + u.bbox.height);
          ctx.stroke();
          const width = ctx.measureText(m.label).width;
          const right = x + 4 * ratio + width > u.bbox.left + u.bbox.width;
          ctx.fillText(m.label, right ? x - 4 * ratio - width : x + 4 * ratio, u.bbox.top + 12 * ratio);
        }
        ctx.restore();
      },
    },
  };
}

export interface DrawnChart {
  plot: uPlot;
  /** Non-null values drawn: what tests count. */
  points: number;
}

const shortKey = (key: string) => key.replace(/^(rollout|val|eval)\/reward\//, '$1 ').replace(/^rollout\//, '');

/** One uPlot chart of `spec.keys` for every job, aligned on steps; hover shows the step and each value; drag zooms, double-click resets. */
export function drawChart(parent: HTMLElement, jobs: readonly JobCurves[], spec: ChartSpec, width: number): DrawnChart | undefined {
  const colors = jobColors();
  const tables: uPlot.AlignedData[] = [];
  const series: uPlot.Series[] = [{ label: 'step' }];
  const owners: number[] = [];
  jobs.forEach((job, j) => {
    for (const key of spec.keys) {
      const s = job.series[key];
      if (!s || s.steps.length === 0) continue;
      const percent = spec.percentKeys?.includes(key);
      const values = percent ? s.values.map((v) => v * 100) : s.values;
      const name = `${jobs.length > 1 ? `${job.job.name} · ` : ''}${shortKey(key)}${percent ? ' %' : ''}`;
      const color = colors[j % colors.length];
      if (spec.smooth) {
        tables.push([s.steps, values]);
        series.push({ label: `${name} (raw)`, stroke: color, width: 1, alpha: 0.45 } as uPlot.Series);
        owners.push(j);
        tables.push([s.steps, movingAverage(values, spec.smooth) as number[]]);
        series.push({ label: `${name} (avg ${spec.smooth})`, stroke: color, width: 2.5 });
        owners.push(j);
      } else {
        tables.push([s.steps, values]);
        series.push({
          label: name,
          stroke: color,
          width: 2,
          dash: spec.keys.indexOf(key) > 0 ? [6, 4] : undefined,
          scale: percent ? '%' : 'y',
          points: { show: s.steps.length < 30 },
        });
        owners.push(j);
      }
    }
  });
  if (!tables.length) return undefined;
  const data = tables.length === 1 ? tables[0] : uPlot.join(tables);
  const points = data
    .slice(1)
    .reduce((n, column) => n + (column as (number | null)[]).filter((v) => v !== null && v !== undefined).length, 0);
  const text = themeColor('--vscode-foreground', '#ccc');
  // Which theme colour the canvas was drawn with: UI checks wait for it after a theme switch.
  parent.dataset.foreground = text;
  // Which steps the chart marks: UI checks find the marker by it.
  if (spec.markers?.length) parent.dataset.markers = spec.markers.map((m) => m.step).join(',');
  const grid = themeColor('--vscode-editorWidget-border', 'rgba(128,128,128,0.3)');
  const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 2 });
  const axis = (scale: string, side?: number): uPlot.Axis => ({
    scale,
    ...(side !== undefined ? { side } : {}),
    ...(scale !== 'x' ? { values: (_u: uPlot, ticks: number[]) => ticks.map((t) => compact.format(t)) } : {}),
    stroke: text,
    grid: { stroke: grid, width: 1 },
    ticks: { stroke: grid, width: 1 },
  });
  const hasPercent = series.some((s) => s.scale === '%');
  const plot = new uPlot(
    {
      title: spec.title,
      width,
      height: 220,
      scales: { x: { time: false }, ...(hasPercent ? { '%': { range: [0, 100] } } : {}) },
      axes: [axis('x'), axis('y'), ...(hasPercent ? [axis('%', 1)] : [])],
      series,
      cursor: { drag: { x: true, y: false } },
      legend: { live: true },
      plugins: spec.markers?.length ? [markerPlugin(spec.markers)] : [],
    },
    data,
    parent,
  );
  if (spec.onPick) {
    plot.over.addEventListener('click', () => {
      const idx = plot.cursor.idx;
      if (idx === null || idx === undefined) return;
      const step = plot.data[0][idx];
      const y = plot.posToVal(plot.cursor.top ?? 0, 'y');
      let best = 0;
      let distance = Infinity;
      for (let i = 1; i < plot.data.length; i++) {
        const v = plot.data[i][idx];
        if (v !== null && v !== undefined && Math.abs(v - y) < distance) [best, distance] = [owners[i - 1], Math.abs(v - y)];
      }
      spec.onPick?.(best, step);
    });
  }
  return { plot, points };
}
