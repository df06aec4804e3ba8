import type { GroupRow, ReplayData, RolloutDetail, RolloutFilter, RolloutRow, RolloutSummary } from '../core/rollouts';
import type { JobCategory } from '../core/jobs/status';

/** Typed messages between the replay board (webview/replay.ts) and the extension (src/features/replay/). */

/** Where the board's rollouts come from; kept in the webview state so a reload can read them again. */
export type ReplaySource =
  | { kind: 'file'; uri: string; label: string }
  | { kind: 'job'; jobName: string; category: JobCategory; region?: string; label: string }
  | { kind: 'logGroup'; logGroup: string; start: number; end?: number; region?: string; label: string }
  /** Log lines embedded in the page: the plain-browser demo, tests and benches. */
  | { kind: 'fixture'; label: string };

export type LoadStatus =
  | { state: 'loading'; message: string; lines?: number; rollouts?: number }
  | { state: 'ready'; rollouts: number; following: boolean }
  | { state: 'empty'; message: string }
  | { state: 'error'; message: string };

export interface BoardSettings {
  colorBlind: boolean;
}

/** What the user was looking at: restored after a window reload. */
export interface BoardState {
  filter: RolloutFilter;
  group?: number;
  rollout?: number;
  compare?: number;
  turn?: number;
  scrollTop?: number;
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
export interface ReplayRequests {
  groups: { params: { filter: RolloutFilter; offset: number; count: number }; result: { total: number; rows: GroupRow[] } };
  rollouts: { params: { group: number; filter: RolloutFilter }; result: RolloutRow[] };
  rollout: { params: { index: number }; result: RolloutDetail | null };
  summary: { params: { filter: RolloutFilter }; result: RolloutSummary };
}
export type RequestMethod = keyof ReplayRequests;

/** Answers one board request from the data: the same dispatch in the extension and in the plain-browser host. */
export function answerRequest(data: ReplayData, method: RequestMethod, params: unknown): unknown {
  const p = (params ?? {}) as { filter?: RolloutFilter; offset?: number; count?: number; group?: number; index?: number };
  const filter = p.filter ?? {};
  switch (method) {
    case 'groups':
      return data.groups(filter, Number(p.offset) || 0, Math.min(500, Number(p.count) || 100));
    case 'rollouts':
      return data.rolloutsIn(Number(p.group), filter);
    case 'rollout':
      return data.detail(Number(p.index)) ?? null;
    case 'summary':
      return data.summary(filter);
    default:
      throw new Error(`Unknown board request '${String(method)}'`);
  }
}

/** What the board shows right now, reported after each render (host tests read it through `mtrl.replay.boardView`). */
export interface BoardView {
  status: LoadStatus['state'];
  /** Rollouts read so far, and whether the board is following a running job. */
  rollouts?: number;
  following?: boolean;
  groups: number;
  firstGroup?: string;
  selectedGroup?: string;
  rollout?: string;
  turn?: number;
}

export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'request'; id: number; method: RequestMethod; params: unknown }
  | { type: 'state'; state: PersistedState }
  | { type: 'view'; view: BoardView }
  | { type: 'retry' };

export type HostMessage =
  | { type: 'response'; id: number; result?: unknown; error?: string }
  /** Loading progress, ready (also after follow mode appended rollouts: the board refreshes), empty, error. */
  | { type: 'status'; status: LoadStatus }
  | { type: 'settings'; settings: BoardSettings };
