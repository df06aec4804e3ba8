import type { SignalCheckShown } from '../core/signal/reportView';
import type { ViewDescriptor, ViewProtocol } from '../webview-kit/channel';

/** Typed messages between the learning-signal view (webview/signal.ts) and the extension (src/features/signal/). */

/** Where a report's rollouts come from; kept in the page state so a window reload reads them again. */
export type SignalSource =
  | { kind: 'file'; uri: string; label: string }
  | { kind: 'job'; jobName: string; region: string; label: string }
  /** A kept check, by its dataset, runtime and reward version. */
  | { kind: 'kept'; key: { dataset: string; runtime: string; reward: string }; label: string };

export interface SignalState {
  /** Reading the rollouts (or the kept check) now. */
  loading: boolean;
  shown: SignalCheckShown;
}

/** Embedded in the page: what it draws first and where it came from. */
export interface InitialSignal extends SignalState {
  source: SignalSource;
}

/** What the page keeps with `setState`: read back by the panel serializer after a window reload. */
export interface PersistedSignal {
  source: SignalSource;
}

/** The learning-signal report: one panel per source, restored after a reload. */
export const SIGNAL_VIEW: ViewDescriptor = { viewType: 'mtrl.signal', pageTitle: 'Learning signal', script: 'signal.js' };

export interface SignalProtocol extends ViewProtocol {
  requests: Record<never, never>;
  toPage: { state: SignalState };
  toHost: {
    openRollouts: undefined;
    tryReward: undefined;
    refresh: undefined;
    /** What the page drew, for tests: the headline and how many bars of each chart. */
    drawn: { kind: string; headline?: string; message?: string; rewardBars: number; difficultyBars: number };
  };
}
