import * as vscode from 'vscode';
import type { ScanResult } from '../../core/scan';
import { REPLAY_VIEW, type PersistedState, type ReplaySource } from '../../shared/protocol';
import { openViewPanel, restoreViewPanels } from '../../webview-kit/panel';
import type { Services } from '../services';
import type { TestProbes } from '../testHooks';
import { insertRolloutLogging } from './insertLogging';
import { boardClass, openBoards } from './board';
import type { ReplayPanel } from './panel';
import { registerRewardActions } from './rewardActions';
import { pickSource, sourceFromArgument } from './sources';

/** The training step a caller asked for (`{ jobName, …, step }` from the metrics view), if any. */
const stepOf = (arg: unknown): number | undefined => {
  const step = (arg as { step?: unknown } | undefined)?.step;
  return typeof step === 'number' && Number.isInteger(step) && step >= 0 ? step : undefined;
};

const sameSource = (a: ReplaySource, b: ReplaySource) => JSON.stringify({ ...a, label: '' }) === JSON.stringify({ ...b, label: '' });

/** The rollout replay board: `mtrl.openRollouts`, "Open With…" for log files, restore after reload, and Insert Rollout Logging. */
export function register(services: Services): Pick<TestProbes, 'replayView'> {
  const { context } = services;

  const openRollouts = async (arg?: unknown): Promise<ReplayPanel | undefined> => {
    const source = sourceFromArgument(arg) ?? (arg === undefined ? await pickSource(services) : undefined);
    if (!source) {
      if (arg !== undefined)
        void vscode.window.showErrorMessage('MTRL: Open Rollouts takes a job from the Jobs view, a log file, or nothing (then it asks).');
      return;
    }
    let existing: ReplayPanel | undefined;
    openBoards()?.each((p) => {
      if (sameSource(p.source, source)) existing = p;
    });
    const step = stepOf(arg);
    if (existing) {
      if (step !== undefined) existing.showStep(step);
      existing.panel.reveal();
      return existing;
    }
    const panel = openViewPanel(REPLAY_VIEW, `Rollouts: ${source.label}`, { extensionUri: context.extensionUri });
    return new (boardClass())(
      panel,
      services,
      source,
      step === undefined ? undefined : { filter: { steps: { from: step, to: step } }, stepsPicked: true },
    );
  };

  /** Opens the board of a job's or a file's rollouts and, once read, says what the scan found (the board's Findings filter to them). */
  const scanRollouts = async (arg?: unknown): Promise<ScanResult | undefined> => {
    const board = await openRollouts(arg);
    if (!board) return undefined;
    await board.firstRead;
    const result = board.findings();
    const failing = result.findings.filter((f) => f.above);
    const shown = result.findings
      .slice(0, 4)
      .map((f) => `${f.kind} ${f.rollouts}`)
      .join(', ');
    const sentence = result.findings.length
      ? `MTRL: scan of ${result.scanned} rollouts of ${board.source.label}: ${shown}${failing.length ? ` (${failing.length} past the threshold)` : ''}. Click a finding on the board to filter.`
      : `MTRL: the scan of ${result.scanned} rollouts of ${board.source.label} found nothing.`;
    void (failing.length ? vscode.window.showWarningMessage(sentence) : vscode.window.showInformationMessage(sentence));
    return result;
  };

  /** Reopens the focused board with its rollouts matched to a dataset's rows: GRPO groups become tasks, not first messages. */
  const matchToDataset = async (dataset?: vscode.Uri): Promise<void> => {
    const active = openBoards()?.active;
    if (!active || active.source.kind !== 'file') {
      void vscode.window.showInformationMessage(
        "Open a local log or traces file on the replay board first: a job's rollouts are already matched to its training data.",
      );
      return;
    }
    const picked =
      dataset instanceof vscode.Uri
        ? dataset
        : (
            await vscode.window.showOpenDialog({
              title: 'MTRL: the dataset these rollouts played (a prompt per row)',
              canSelectMany: false,
              filters: { Datasets: ['jsonl', 'json', 'csv', 'parquet'] },
            })
          )?.[0];
    if (!picked) return;
    const source: ReplaySource = { ...active.source, data: picked.toString() };
    const board = active.board;
    active.panel.dispose();
    const panel = openViewPanel(REPLAY_VIEW, `Rollouts: ${source.label}`, { extensionUri: context.extensionUri });
    new (boardClass())(panel, services, source, board && { filter: board.filter, stepsPicked: board.stepsPicked });
  };

  context.subscriptions.push(
    vscode.commands.registerCommand('mtrl.openRollouts', async (arg?: unknown) => void (await openRollouts(arg))),
    vscode.commands.registerCommand('mtrl.scanRollouts', scanRollouts),
    vscode.commands.registerCommand('mtrl.matchRolloutsToDataset', matchToDataset),
    vscode.commands.registerCommand('mtrl.insertRolloutLogging', insertRolloutLogging),
    vscode.commands.registerCommand('mtrl.exportReport', (given?: unknown) =>
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the page builder loads on first export; the board is passed in (that bundle has no board registry of its own)
      (require('./exportReport') as typeof import('./exportReport')).exportBoardReport(services, openBoards()?.active, given),
    ),
    ...registerRewardActions(services),
    restoreViewPanels<PersistedState>(REPLAY_VIEW, (panel, state) => {
      if (!state?.source || state.source.kind === 'fixture') return panel.dispose();
      new (boardClass())(panel, services, state.source, state.board);
    }),
    vscode.window.registerCustomEditorProvider(
      'mtrl.rolloutLog',
      {
        openCustomDocument: (uri) => ({ uri, dispose: () => undefined }),
        resolveCustomEditor: (document, panel) => {
          new (boardClass())(panel, services, {
            kind: 'file',
            uri: document.uri.toString(),
            label: vscode.workspace.asRelativePath(document.uri),
          });
        },
      } satisfies vscode.CustomReadonlyEditorProvider,
      { supportsMultipleEditorsPerDocument: true },
    ),
    services.settings.onDidChange(['replay.colorBlind'], () => openBoards()?.each((p) => p.applySettings())),
  );
  return {
    // For tests: what the focused board shows, as the page reported it.
    replayView: () => {
      const active = openBoards()?.active;
      return active ? { source: active.source, view: active.view, board: active.board } : undefined;
    },
  };
}
