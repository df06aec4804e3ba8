// The files the driver and the in-host runner exchange: the run's config in, the report out.

export interface HostRunConfig {
  /** Absolute path of the repo's mocha CommonJS entry (node_modules/mocha/lib/mocha.cjs). */
  mochaPath: string;
  /** The repository's root: fixtures a suite copies in as a user's tool would write them (files written by pandas, polars, pyarrow). */
  repository: string;
  /** Bundled suite files (CommonJS), run in this order. */
  files: string[];
  /** Mocha grep over full titles; empty runs everything. */
  grep: string;
  /** Where the runner writes the JSON report (rewritten after each test, `done` at the end). */
  reportPath: string;
  /** Per-test timeout in milliseconds. */
  timeoutMs: number;
  /** Phase of this session: the trusted workspace, or the untrusted one for `*.untrusted.test.ts`. */
  phase: 'trusted' | 'untrusted';
  /** The folder the window opened: it holds the running suite's copy of the fixture folder, and nothing else. */
  workspace: string;
  /** The fixture folder each suite file (and each UI check group) gets a fresh copy of, inside `workspace`. */
  fixture: string;
  /** Where the copies of suites with a failed test are moved (the driver publishes them with the artifacts). */
  keptCopies: string;
  /** The contagion self-test's bundled writer and reader suites (test/host/selftest), run only by the harness suite. */
  selfTestSuites: string[];
  /** Base URL of the local emulator, when one runs. */
  emulatorUrl?: string;
  /** When the whole session gives up (epoch ms): the desktop launcher waits for the report until then. */
  deadline?: number;
  /** Where the UI checks drop command requests (`<id>.request.json`) and the runner answers (`<id>.response.json`). */
  commandDir?: string;
  /** The session's user-level `mtrl.*` AWS settings (keys without `mtrl.`): a UI check group starts from them again. */
  awsSettings?: Record<string, unknown>;
}

/** A command the UI harness asks the extension host to run (see `test/host/lib/host-commands.mjs`). */
export interface HostCommandRequest {
  command: string;
  args: unknown[];
}

export interface HostCommandResponse {
  result?: unknown;
  error?: string;
}

export interface HostTestResult {
  title: string;
  file?: string;
  state: 'passed' | 'failed' | 'pending';
  durationMs: number;
  error?: { message: string; stack?: string };
}

export interface HostReport {
  startedAt: string;
  /** False while the suites still run. */
  done: boolean;
  /** Set when the runner itself broke (mocha missing, a suite failed to load). */
  fatal?: string;
  tests: HostTestResult[];
  /** Figures the suites recorded (milliseconds and the like), by name. */
  measurements: Record<string, number>;
}
