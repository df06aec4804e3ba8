import * as vscode from 'vscode';
import { listJobs, stopJob } from '../../aws/sagemaker';
import { isJobRef, parseJobArgument, type JobRef } from '../../core/jobs/reference';
import { comparisonFromJobs, gridOf } from '../../services/evaluations';
import { sweepComparison } from '../../services/sweeps';
import type { JobsView } from '../jobs/contributed';
import type { Services } from '../services';
import type { ResetForTests } from '../testHooks';
import { ComparisonPanels } from './comparisonPanel';
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
  const panels = new ComparisonPanels();
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
    panels,
    lens,
    jobsView.contribute(sweepsInJobsView(queue)),
    vscode.languages.registerCodeLensProvider({ pattern: '**/*.mtrl-sweep.json' }, lens),
    vscode.commands.registerCommand('mtrl.newSweep', () => newSweepWizard(services, explain)),
    vscode.commands.registerCommand('mtrl.startSweep', async (arg?: unknown) => {
      const uri = target(uriOf(arg));
      if (!uri) return needFile();
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
        await queue.cancel(uri, (jobName, region) => stopJob(services.aws.sagemaker(region), { jobName, category: 'AgentRFTEvaluation' }));
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
    vscode.commands.registerCommand('mtrl.compareSweep', async (arg?: unknown) => {
      const uri = target(uriOf(arg));
      if (!uri) return needFile();
      const tracked = await queue.refresh(uri);
      if (!tracked?.sweep) return void vscode.window.showErrorMessage(tracked?.problem ?? 'The sweep file could not be read.');
      const sweep = tracked.sweep;
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Reading the evaluations of ${sweep.name}…`, cancellable: true },
        async (_p, token) => {
          const controller = new AbortController();
          token.onCancellationRequested(() => controller.abort());
          try {
            const { grid, state, comparison } = await sweepComparison(services.aws, sweep, pricing(), controller.signal);
            const p = state.progress;
            const notes = [
              `${p.done} of ${p.total} evaluations completed${p.running ? `, ${p.running} running` : ''}${p.waiting ? `, ${p.waiting} waiting` : ''}${p.failed ? `, ${p.failed} failed or stopped` : ''}.`,
              ...comparison.skipped.map((s) => `${s.job}: ${s.reason}.`),
            ];
            panels.show(`Sweep ${sweep.name}`, grid, notes);
          } catch (error) {
            void vscode.window.showErrorMessage(explain(error, `Comparing sweep ${sweep.name}`));
          }
        },
      );
    }),
    vscode.commands.registerCommand('mtrl.compareEvaluations', async (clicked?: unknown, selected?: unknown[]) => {
      // A pipeline node of the Jobs view stands for its evaluations (base and fine-tuned).
      const pair =
        (clicked as { kind?: string; jobs?: unknown[] } | undefined)?.kind === 'pipeline'
          ? (clicked as { jobs: unknown[] }).jobs
          : undefined;
      let jobs: { jobName?: string; region?: string }[] = (selected?.length ? selected : (pair ?? (clicked ? [clicked] : [])))
        .map((arg) => parseJobArgument(arg))
        .filter((j) => isJobRef(j) && j.category === 'AgentRFTEvaluation') as JobRef[];
      const region = jobs[0]?.region ?? services.aws.current.region;
      if (jobs.length < 2) {
        const picks = await pickEvaluations(
          services,
          region,
          jobs.map((j) => j.jobName!),
          explain,
        );
        if (!picks) return;
        jobs = picks.map((jobName) => ({ jobName, region }));
      }
      const names = jobs.map((j) => j.jobName!);
      return vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Reading ${names.length} evaluations…` },
        async () => {
          try {
            const comparison = await comparisonFromJobs(services.aws, region, names, pricing());
            const grid = gridOf(comparison);
            panels.show(
              `Compare ${names.length} evaluations`,
              grid,
              comparison.skipped.map((s) => `${s.job}: not compared, ${s.reason}.`),
            );
            return {
              rows: grid.rows,
              columns: grid.columns,
              deltas: grid.deltas.map((d) => ({ row: d.row, column: d.column, significant: d.delta.significant })),
            };
          } catch (error) {
            void vscode.window.showErrorMessage(explain(error, 'Comparing evaluations'));
          }
        },
      );
    }),
    ...(['markdown', 'csv'] as const).map((format) =>
      vscode.commands.registerCommand(format === 'markdown' ? 'mtrl.copyComparisonMarkdown' : 'mtrl.copyComparisonCsv', async () => {
        const text = panels.copyText(format);
        if (!text) return void vscode.window.showInformationMessage('Open a comparison first (MTRL: Compare Evaluations…).');
        await vscode.env.clipboard.writeText(text);
        void vscode.window.setStatusBarMessage(`Comparison copied as ${format === 'markdown' ? 'Markdown' : 'CSV'}`, 3000);
        return text;
      }),
    ),
  );
  return { resetForTests: () => queue.resetForTests() };
}

/** Completed evaluations of the region to choose from, those already given pre-selected. */
async function pickEvaluations(
  services: Services,
  region: string,
  given: string[],
  explain: (e: unknown, a: string) => string,
): Promise<string[] | undefined> {
  const items: vscode.QuickPickItem[] = [];
  try {
    for await (const job of listJobs(services.aws.sagemaker(region), { JobCategory: 'AgentRFTEvaluation', StatusEquals: 'Completed' })) {
      if (job.JobName)
        items.push({
          label: job.JobName,
          picked: given.includes(job.JobName),
          description: job.CreationTime?.toISOString().slice(0, 16).replace('T', ' '),
        });
    }
  } catch (error) {
    void vscode.window.showErrorMessage(explain(error, 'Listing evaluation jobs'));
    return undefined;
  }
  if (items.length === 0) {
    void vscode.window.showInformationMessage(`No completed evaluation job in ${region} to compare.`);
    return undefined;
  }
  const picks = await vscode.window.showQuickPick(items, {
    title: "Evaluations to compare (the base model's first)",
    canPickMany: true,
    ignoreFocusOut: true,
  });
  return picks?.length ? picks.map((p) => p.label) : undefined;
}
