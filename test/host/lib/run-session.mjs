// One phase of the host run: trusted (the default) or untrusted (workspace trust on, `*.untrusted.test.ts` suites).
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { emulatorEnvironment } from './emulator.mjs';
import { hostCommand } from './host-commands.mjs';
import { uiQueue } from './ui-queue.mjs';
import { waitForReport } from './report-wait.mjs';
import { ceiling } from './wait.mjs';
import {
  collectHostLogs,
  prepareFixture,
  hostLogFiles,
  openWorkbench,
  startServer,
  stopProcess,
  reopenWorkbench,
  writeMachineSettings,
  writeUserSettings,
} from './session.mjs';

const { parseReport, sessionResults } = await tsImport('./report.ts', import.meta.url);
const { selects } = await tsImport('./selection.ts', import.meta.url);
const { retireCopy } = await tsImport('./copies.ts', import.meta.url);

export const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  // The secondary side bar (chat) would take a third of the screenshots and start idle AI services.
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  // Quick Open lists files on disk only: its history would offer a file of an earlier group's copy, deleted since.
  'search.quickOpen.includeHistory': false,
};

/** Machine-scoped settings, read from the remote machine's settings file in a remote window (code-server's is one). */
export const QUIET_MACHINE_SETTINGS = {
  // The extension opens its walkthrough on first activation unless this is off: checks start without it (walkthrough.mjs opens it).
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
};

function trustSettings(phase) {
  if (phase === 'trusted') return { 'security.workspace.trust.enabled': false };
  // Trust on, no modal prompt: the folder simply opens in Restricted Mode.
  return {
    'security.workspace.trust.enabled': true,
    'security.workspace.trust.startupPrompt': 'never',
    'security.workspace.trust.emptyWindow': false,
  };
}

/**
 * The server's environment: no real AWS credentials or profile leak into tests; the emulator's when it runs.
 * MTRL_TEST_HOOKS makes the product register its test-only reset command (never contributed in package.json).
 * A cache folder of its own: what the command line keeps there (signal checks) by this user or a CI run beside is not seen.
 */
function serverEnvironment(configPath, emulatorUrl, cacheDir) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('AWS_')));
  return {
    ...env,
    ...(emulatorUrl ? emulatorEnvironment(emulatorUrl) : {}),
    MTRL_HOST_CONFIG: configPath,
    MTRL_TEST_HOOKS: '1',
    XDG_CACHE_HOME: cacheDir,
  };
}

const slug = (text) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);

const VIEWPORT = { width: 1400, height: 900 };

/**
 * Each check starts from a quiet page: the window at its usual size, no quick input, menu or hover left open by the
 * previous one (a check that failed half-way may not have put them back itself). A check that needs a theme picks it.
 */
async function settlePage(page) {
  const size = page.viewportSize();
  if (size?.width !== VIEWPORT.width || size?.height !== VIEWPORT.height) await page.setViewportSize(VIEWPORT);
  await page.mouse.move(700, 450);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
}

/** The sizes of the extension host's logs now: a failed check keeps what was written after. */
function logMarks(dirs) {
  return new Map(hostLogFiles(dirs).map((file) => [file, readFileSync(file).length]));
}

/** What the extension host (the product's "MTRL" channel among them) logged since `marks`, file by file. */
function logsSince(dirs, marks) {
  return hostLogFiles(dirs)
    .map((file) => {
      const text = readFileSync(file)
        .subarray(marks.get(file) ?? 0)
        .toString('utf8');
      return text.trim() ? `=== ${path.basename(path.dirname(file))}/${path.basename(file)}\n${text}` : '';
    })
    .filter(Boolean)
    .join('\n');
}

/** The most one UI check may take on an idle machine (the longest takes about 40 s): a hung check fails, the next runs. */
const CHECK_LIMIT_MS = 180_000;

/** `work`'s value, or an error once `ms` have passed without it. */
async function withinLimit(work, ms) {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the check did not end within ${Math.round(ms / 1000)} s`)), ms);
  });
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs the UI checks, each group (a test/host/ui file) on its own fresh copy of the fixture folder (`workspace` in the
 * check's arguments) and from a known state: every editor closed, no notification, and per check the product's
 * test-only reset (sweeps forgotten and their tick held, the Jobs view unfiltered, its polling held unless the check says
 * `polling: true`). A failed check leaves a screenshot and the logs written during it, and the group's next check starts
 * on a new copy. A group's copy leaves the workspace when the group ends (kept for the artifacts when a check failed).
 */
async function runUiChecks({
  queue,
  phase,
  page,
  workspace,
  keptCopies,
  emulatorUrl,
  manifest,
  artifacts,
  grep,
  commandDir,
  logDirs,
  log,
}) {
  const results = [];
  let group;
  let copy;
  let failed = false;
  const retire = () => {
    if (copy) retireCopy(copy, failed ? keptCopies : undefined);
    // Workspace settings a check wrote (.vscode/settings.json of the opened folder) end with its group too.
    rmSync(path.join(workspace, '.vscode'), { recursive: true, force: true });
    copy = undefined;
    failed = false;
  };
  for (let taken = queue.take(); taken; taken = queue.take()) {
    const groupStart = Date.now();
    let ran = 0;
    for (const check of taken) {
      const title = `ui: ${check.name}`;
      if (!selects(grep, title)) continue;
      ran++;
      const screenshot = (name) => page.screenshot({ path: path.join(artifacts, `${phase}-${name}.png`) });
      const at = Date.now();
      const marks = logMarks(logDirs);
      let running;
      try {
        await settlePage(page);
        const newGroup = check.group !== group || !copy;
        if (newGroup) {
          // Once more if an editor opened meanwhile ("another editor opened in the meantime", seen at a session's first group).
          await hostCommand(commandDir, 'mtrl-test.resetWorkbench').catch(() => hostCommand(commandDir, 'mtrl-test.resetWorkbench'));
          retire();
          copy = await hostCommand(commandDir, 'mtrl-test.freshCopy', [`ui-${check.group.replace(/\.mjs$/, '')}`]);
          group = check.group;
        }
        // A group also starts with no remembered choice (the wizards' last answers and the like) of an earlier group.
        const reset = await hostCommand(commandDir, 'mtrl-test.resetProduct', [
          { polling: Boolean(check.polling), forgetChoices: newGroup },
        ]);
        if (phase === 'trusted' && reset !== true) throw new Error(`the product's test-only reset did not run (${JSON.stringify(reset)})`);
        running = check.run({
          page,
          workspace: copy,
          workspaceRoot: workspace,
          emulatorUrl,
          manifest,
          screenshot,
          host: (command, args, options) => hostCommand(commandDir, command, args, options),
        });
        const note = await withinLimit(running, ceiling(CHECK_LIMIT_MS));
        results.push({
          phase: 'ui',
          title: note ? `${title} (${note})` : title,
          state: note ? 'pending' : 'passed',
          durationMs: Date.now() - at,
        });
      } catch (error) {
        await screenshot(`failed-${slug(check.name)}`).catch(() => {});
        writeFileSync(path.join(artifacts, `${phase}-failed-${slug(check.name)}.log`), logsSince(logDirs, marks));
        // A check past its limit still runs: its waits end by their own ceilings, and its finally (theme, window size, Escape)
        // would act on the next check's page. The next starts once it has stopped.
        await withinLimit(
          Promise.resolve(running).catch(() => undefined),
          ceiling(CHECK_LIMIT_MS),
        ).catch(() => undefined);
        // The next check starts over on a new copy, in its group's known state.
        failed = true;
        await hostCommand(commandDir, 'mtrl-test.resetWorkbench').catch(() => undefined);
        retire();
        results.push({ phase: 'ui', title, state: 'failed', durationMs: Date.now() - at, error: error?.stack ?? String(error) });
      }
    }
    // Which session ran which group, and for how long: where a CI's host time goes.
    if (ran) log(`${taken[0].group}: ${ran} check(s) in ${Math.round((Date.now() - groupStart) / 1000)} s`);
  }
  await hostCommand(commandDir, 'mtrl-test.resetWorkbench').catch(() => undefined);
  retire();
  return results;
}

/**
 * One phase's folders, user settings (trust per phase), runner config, the fixture folder every suite and UI check group
 * copies, and the workspace folder the window opens (empty until a suite's copy lands in it): the same for every launcher.
 */
export function preparePhase({ root, runDir, emulatorUrl, grep, bundles, selfTestBundles = [], phase, name = phase, deadline }) {
  const dir = path.join(runDir, name);
  const userDataDir = path.join(dir, 'user-data');
  const serverDataDir = path.join(dir, 'server-data');
  mkdirSync(serverDataDir, { recursive: true });
  const fixture = prepareFixture(path.join(root, 'test/fixtures/workspace'), path.join(dir, 'fixture'));
  const workspace = path.join(dir, 'mtrl-host-workspace');
  mkdirSync(workspace);
  const keptCopies = path.join(dir, 'kept-copies');
  const awsSettings = emulatorUrl ? { 'aws.endpoint': emulatorUrl, 'aws.region': 'us-east-1' } : {};
  const emulatorSettings = Object.fromEntries(Object.entries(awsSettings).map(([key, value]) => [`mtrl.${key}`, value]));
  writeUserSettings(userDataDir, { ...QUIET_SETTINGS, ...trustSettings(phase), ...emulatorSettings });
  writeMachineSettings(userDataDir, QUIET_MACHINE_SETTINGS);

  const reportPath = path.join(dir, 'report.json');
  const configPath = path.join(dir, 'config.json');
  const commandDir = path.join(dir, 'commands');
  mkdirSync(commandDir, { recursive: true });
  const config = {
    mochaPath: path.join(root, 'node_modules/mocha/lib/mocha.cjs'),
    repository: root,
    files: bundles,
    grep,
    reportPath,
    timeoutMs: ceiling(30_000),
    phase,
    workspace,
    fixture,
    keptCopies,
    selfTestSuites: selfTestBundles,
    emulatorUrl,
    deadline,
    commandDir,
    awsSettings,
  };
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  const cacheDir = path.join(dir, 'cache');
  mkdirSync(cacheDir, { recursive: true });
  const env = serverEnvironment(configPath, emulatorUrl, cacheDir);
  return { userDataDir, serverDataDir, workspace, fixture, keptCopies, reportPath, configPath, commandDir, env };
}

export async function runSession(options) {
  const { artifacts, serverNode, codeServer, extensionsDir, manifest, emulatorUrl, grep, timeoutMs, uiChecks, bundles, phase, log } =
    options;
  // A phase may run as two sessions side by side (its suites, its UI checks): each names its own folders and logs.
  const name = options.name ?? phase;
  const { userDataDir, serverDataDir, workspace, keptCopies, reportPath, commandDir, env } = preparePhase(options);

  let server;
  let workbench;
  try {
    server = await startServer({
      codeServer,
      serverNode,
      userDataDir,
      serverDataDir,
      extensionsDir,
      env,
      logFile: path.join(artifacts, `${name}-server.log`),
    });
    log(`${name}: server at ${server.url}, ${bundles.length} suite file(s)`);
    workbench = await openWorkbench(server.url, workspace);
    // MTRL_HOST_TIMEOUT (600 s) is the most a phase may go without a test ending on a lightly loaded machine.
    const stallMs = ceiling(timeoutMs / 2);
    const text = await waitForReport(reportPath, server.child, stallMs, {
      // Seen with three CIs at once (load 60): all six windows connected, started an extension host and then activated
      // nothing for 15 minutes, so the runner never ran. Such a window is loaded again, once, after a screenshot of it.
      startMs: ceiling(90_000),
      notStarted: async () => {
        log(`${name}: the test runner did not start within ${Math.round(ceiling(90_000) / 1000)} s; loading the window again`);
        await workbench.page.screenshot({ path: path.join(artifacts, `${name}-not-started.png`) }).catch(() => undefined);
        if (!existsSync(reportPath)) await reopenWorkbench(workbench.page);
      },
    });
    if (existsSync(reportPath)) copyFileSync(reportPath, path.join(artifacts, `${name}-report.json`));
    const results = sessionResults(phase, text ? parseReport(text) : undefined, stallMs);
    if (bundles.length) log(`${name}: ${results.length} suite test(s) ended`);
    options.onSuitesEnd?.();
    await workbench.page.screenshot({ path: path.join(artifacts, `${name}-workbench.png`) });
    results.push(
      ...(await runUiChecks({
        // A queue shared with a session beside this one, or this session's own.
        queue: Array.isArray(uiChecks) ? uiQueue(uiChecks.filter((c) => (c.phase ?? 'trusted') === phase)) : uiChecks,
        phase,
        page: workbench.page,
        workspace,
        keptCopies,
        emulatorUrl,
        manifest,
        artifacts,
        grep,
        commandDir,
        userDataDir,
        logDirs: [userDataDir, serverDataDir],
        log: (message) => log(`${name}: ${message}`),
      })),
    );
    if (results.some((r) => r.state === 'failed') && workbench.consoleErrors.length) {
      writeFileSync(path.join(artifacts, `${name}-console-errors.txt`), workbench.consoleErrors.join('\n'));
    }
    return results;
  } finally {
    await workbench?.close();
    if (server) await stopProcess(server.child);
    collectHostLogs([userDataDir, serverDataDir], path.join(artifacts, `${name}-logs`));
    if (existsSync(keptCopies)) cpSync(keptCopies, path.join(artifacts, `${name}-failed-copies`), { recursive: true });
  }
}
