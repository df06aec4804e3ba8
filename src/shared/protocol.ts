import type {
  ActionTable,
  GroupRow,
  ReplayData,
  RolloutDetail,
  RolloutFilter,
  RolloutRow,
  RolloutSummary,
  StepAxis,
} from '../core/rollouts';
import type { JobCategory } from '../core/jobs/status';
import type { ScanResult } from '../core/scan/types';
import type { RequestHandlers, ViewDescriptor, ViewProtocol } from '../webview-kit/channel';

/** The replay board: one panel per source, restored after a reload. */
export const REPLAY_VIEW: ViewDescriptor = { viewType: 'mtrl.replay', pageTitle: 'Rollout replay', script: 'replay.js' };

/** Typed messages between the replay board (webview/replay.ts) and the extension (src/features/replay/). */

/** Where the board's rollouts come from; kept in the webview state so a reload can read them again. */
export type ReplaySource =
  /** `data`: the training data (a file URI) whose rows the rollouts are matched to as tasks; absent: the first message is the task. */
  | { kind: 'file'; uri: string; label: string; data?: string }
  /** `from`: the runtime log or the MLflow traces by choice; absent: the best there is (records, else traces, else SDK lines). */
  | { kind: 'job'; jobName: string; category: JobCategory; region?: string; label: string; from?: 'log' | 'traces' }
  | { kind: 'logGroup'; logGroup: string; start: number; end?: number; region?: string; label: string }
  /** Log lines embedded in the page: the plain-browser demo, tests and benches. */
  | { kind: 'fixture'; label: string };

export type LoadStatus =
  | { state: 'loading'; message: string; lines?: number; rollouts?: number }
  /** `reading`: more rollouts are still streaming in; the board shows what it has. `notices`: what was left out (lines too long to read). */
  | { state: 'ready'; rollouts: number; following: boolean; reading?: boolean; notices?: string[] }
  | { state: 'empty'; message: string; notices?: string[] }
  | { state: 'error'; message: string };

export interface BoardSettings {
  colorBlind: boolean;
}

/** What the user was looking at: restored after a window reload. */
export interface BoardState {
  filter: RolloutFilter;
  /** The user chose steps: a job no longer jumps to its latest step. */
  stepsPicked?: boolean;
  group?: number;
  rollout?: number;
  compare?: number;
  turn?: number;
  scrollTop?: number;
  /** Metrics keys shown as rollout-list columns. */
  columns?: string[];
}

/** Embedded in the page as `<script type="application/json" id="mtrl-initial">`: no first-message race. */
export interface InitialState {
  source: ReplaySource;
  status: LoadStatus;
  settings: BoardSettings;
  board?: BoardState;
  /** Plain-browser mode only: the log lines to read in the page. */
  fixture?: string[];
}

/** What the webview persists with `setState` (read back by the panel serializer). */
export interface PersistedState {
  source: ReplaySource;
  board: BoardState;
}

/** Request name → parameters and result. Pages, never the whole data set. */
interface ReplayRequests {
  groups: { params: { filter: RolloutFilter; offset: number; count: number }; result: { total: number; rows: GroupRow[] } };
  rollouts: { params: { group: number; filter: RolloutFilter }; result: RolloutRow[] };
  rollout: { params: { index: number }; result: RolloutDetail | null };
  summary: { params: { filter: RolloutFilter }; result: RolloutSummary };
  steps: { params: Record<string, never>; result: StepAxis };
  /** Each tool and argument value in above- vs below-average rollouts of their groups, for the steps the filter shows. */
  actions: { params: { filter: RolloutFilter }; result: ActionTable };
  /** The rollout scan's findings over every rollout read (ids cut to the first few: the filter finds the rest). */
  findings: { params: Record<string, never>; result: ScanResult };
}

/** Ids a finding carries to the page: the board filters by kind, so the list is only a sample. */
const FINDING_IDS = 20;

/** Answers the board's requests from the data: the same handlers in the extension and in the plain-browser page. */
export function replayHandlers(data: ReplayData, scan?: { result(): ScanResult }): RequestHandlers<ReplayRequests> {
  return {
    groups: ({ filter, offset, count }) => data.groups(filter ?? {}, Number(offset) || 0, Math.min(500, Number(count) || 100)),
    rollouts: ({ group, filter }) => data.rolloutsIn(Number(group), filter ?? {}),
    rollout: async ({ index }) => (await data.detail(Number(index))) ?? null,
    summary: ({ filter }) => data.summary(filter ?? {}),
    steps: () => data.steps(),
    actions: ({ filter }) => data.actions(filter ?? {}),
    findings: () => {
      const result = scan?.result() ?? { scanned: 0, findings: [] };
      return { ...result, findings: result.findings.map((f) => ({ ...f, ids: f.ids.slice(0, FINDING_IDS) })) };
    },
  };
}

/** What the board shows right now, reported after each render (host tests read it through the test hooks' probe). */
export interface BoardView {
  /** `loading` also while rollouts still stream in behind what is shown. */
  status: LoadStatus['state'];
  /** Rollouts read so far, and whether the board is following a running job. */
  rollouts?: number;
  following?: boolean;
  groups: number;
  firstGroup?: string;
  selectedGroup?: string;
  rollout?: string;
  turn?: number;
  /** The notices the board shows (lines that were not read). */
  notices?: string[];
}

/** The board's messages over the webview kit's channel (the `ready` handshake is the kit's). */
export interface ReplayProtocol extends ViewProtocol {
  requests: ReplayRequests;
  toPage: {
    /** Loading progress, ready (also after follow mode appended rollouts: the board refreshes), empty, error. */
    status: LoadStatus;
    settings: BoardSettings;
    /** Show these steps (a click on a metrics curve asked for one): as if the user had picked them. */
    showSteps: { from: number; to: number };
  };
  toHost: {
    state: PersistedState;
    view: BoardView;
    retry: undefined;
  };
}
