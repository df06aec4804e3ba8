import type { JobCurves, MetricsJob } from '../core/metrics/curves';
import type { ViewDescriptor, ViewProtocol } from '../webview-kit/channel';

/** Typed messages between the metrics view (webview/metrics.ts) and the extension (src/features/metrics/). */

export type { CurveFinding, JobCurves, MetricsJob } from '../core/metrics/curves';
export { FIXED_CHARTS } from '../core/metrics/curves';

export interface MetricsState {
  jobs: JobCurves[];
  loading: boolean;
  /** Moving-average window of the reward chart. */
  window: number;
  /** Keys picked to draw besides the fixed charts. */
  extraKeys: string[];
}

/** What the page keeps with `setState` so the view comes back after a window reload (read by the panel serializer). */
export interface PersistedMetrics {
  jobs: MetricsJob[];
  window: number;
  extraKeys: string[];
}

/** The metrics view: one panel, restored after a reload with its jobs, window and keys. */
export const METRICS_VIEW: ViewDescriptor = { viewType: 'mtrl.metrics', pageTitle: 'Training curves', script: 'metrics.js' };

/** What the view and the extension say over the kit's typed channel: the state down, the user's actions up. */
export interface MetricsProtocol extends ViewProtocol {
  requests: Record<never, never>;
  toPage: { state: MetricsState };
  toHost: {
    refresh: undefined;
    window: { window: number };
    extraKeys: { keys: string[] };
    addJob: undefined;
    removeJob: { job: number };
    openMlflow: { job: number };
    copyCsv: undefined;
    openRollouts: { job: number; step: number };
    /** Points drawn per chart title: what tests count. */
    drawn: { points: Record<string, number> };
  };
}
