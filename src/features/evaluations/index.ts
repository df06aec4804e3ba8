import { costConfirmation, parseSweep } from '../../core/evaluation/sweep';
import * as vscode from 'vscode';
import { stopJobIn } from '../../services/jobs/lookup';
import type { JobsView } from '../jobs/contributed';
import type { Services } from '../services';
import type { ResetForTests } from '../testHooks';
import type { ComparisonCommands } from './comparison';
import { SweepLensProvider } from './sweepLens';
import { SweepQueue } from './sweepQueue';
import { sweepsInJobsView } from './sweepNodes';
import { newSweepWizard } from './sweepWizard';

/** Evaluation sweeps (a queue of evaluations, one at a time, shown in the Jobs view) and the comparison of evaluations with intervals. */
export function register(services: Services, jobsView: JobsView): ResetForTests {
  const { context } = services;
  const { explain } = services;
  const pricing = () => services.settings.pricing();
  const queue = new SweepQueue(services, explain, pricing);
  let made: ComparisonCommands | undefined;
  /** The comparison's commands and panel, loaded on first use: the build maps './comparison' to dist/comparison.js. */
  const comparison = (): ComparisonCommands => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    made ??= (require('./comparison') as typeof import('./comparison')).comparisonCommands(services, queue);
    return made;
  };
  const lens = new SweepLensProvider(queue);
  const target = (uri?: vscode.Uri) =>
    uri ??
    (vscode.window.activeTextEditor?.document.fileName.endsWith('.mtrl-sweep.json')
      ? vscode.window.activeTextEditor.document.uri
      : undefined);
  const needFile = () => void vscode.window.showErrorMessage('Open a *.mtrl-sweep.json file, or pick a sweep in the Jobs view.');
  const uriOf = (arg: unknown): vscode.Uri | undefined =>
    arg instanceof vscode.Uri ? arg : (arg as { tracked?: { uri: vscode.Uri } } | undefined)?.tracked?.uri;

  context.subscriptions.push(
    queue,
    { dispose: () => made?.dispose() },
    lens,
    jobsView.contribute(sweepsInJobsView(queue)),
    vscode.languages.registerCodeLensProvider({ pattern: '**/*.mtrl-sweep.json' }, lens),
    vscode.commands.registerCommand('mtrl.newSweep', () => newSweepWizard(services, explain)),
    // `confirmed` lets a script or test start a costly sweep without the modal question.
    vscode.commands.registerCommand('mtrl.startSweep', async (arg?: unknown, confirmed?: boolean) => {
      const uri = target(uriOf(arg));
      if (!uri) return needFile();
      const text = await vscode.workspace.fs.readFile(uri).then(
        (bytes) => new TextDecoder().decode(bytes),
        () => '',
      );
      const sweep = parseSweep(text).sweep;
      const question = sweep && !confirmed ? costConfirmation(sweep) : undefined;
      if (question && (await vscode.window.showWarningMessage(question, { modal: true }, 'Start Sweep')) !== 'Start Sweep') return;
      const tracked = await queue.start(uri);
      if (tracked?.problem) void vscode.window.showErrorMessage(tracked.problem);
      void vscode.commands.executeCommand('mtrl.jobs.focus');
      return tracked && { control: tracked.control, progress: tracked.state?.progress, problem: tracked.problem };
    }),
    vscode.commands.registerCommand('mtrl.pauseSweep', async (arg?: unknown) => {
      const uri = target(uriOf(arg));
      if (!uri) return needFile();
      await queue.pause(uri);
      return queue.get(uri)?.control;
    }),
    // `confirmed` lets a script or test cancel without the modal question.
    vscode.commands.registerCommand('mtrl.cancelSweep', async (arg?: unknown, confirmed?: boolean) => {
      const uri = target(uriOf(arg));
      if (!uri) return needFile();
      const pick = confirmed
        ? 'Cancel Sweep'
        : await vscode.window.showWarningMessage(
            'Cancel the sweep? Its running evaluation is stopped and nothing more is launched; finished evaluations are kept.',
            { modal: true },
            'Cancel Sweep',
          );
      if (pick !== 'Cancel Sweep') return;
      try {
        await queue.cancel(uri, (jobName, region) => stopJobIn(services.aws, { jobName, category: 'AgentRFTEvaluation', region }));
      } catch (error) {
        void vscode.window.showErrorMessage(explain(error, "Stopping the sweep's evaluation"));
      }
    }),
    vscode.commands.registerCommand('mtrl.removeSweep', async (arg?: unknown) => {
      const uri = target(uriOf(arg));
      if (!uri) return needFile();
      if (queue.get(uri)?.control === 'running') {
        return void vscode.window.showInformationMessage('Pause or cancel the sweep before removing it from the Jobs view.');
      }
      await queue.remove(uri);
    }),
    vscode.commands.registerCommand('mtrl.compareSweep', (arg?: unknown) => {
      const uri = target(uriOf(arg));
      return uri ? comparison().compareSweep(uri) : needFile();
    }),
    vscode.commands.registerCommand('mtrl.compareEvaluations', (clicked?: unknown, selected?: unknown[]) =>
      comparison().compareEvaluations(clicked, selected),
    ),
    ...(['markdown', 'csv'] as const).map((format) =>
      vscode.commands.registerCommand(format === 'markdown' ? 'mtrl.copyComparisonMarkdown' : 'mtrl.copyComparisonCsv', () =>
        comparison().copy(format),
      ),
    ),
  );
  return { resetForTests: () => queue.resetForTests() };
}
