import * as vscode from 'vscode';
import { isJobRef, parseJobArgument, type JobRef } from '../../core/jobs/reference';
import { comparisonFromJobs, gridOf } from '../../services/evaluations';
import { jobsIn } from '../../services/jobs/lookup';
import { sweepComparison } from '../../services/sweeps';
import { viewDeadline } from '../../services/viewDeadline';
import type { Services } from '../services';
import { ComparisonPanels } from './comparisonPanel';
import type { SweepQueue } from './sweepQueue';

/** The bodies of Compare Sweep, Compare Evaluations and the Copy commands, loaded on first use (dist/comparison.js): index.ts registers them. */
export function comparisonCommands(services: Services, queue: SweepQueue) {
  const { explain } = services;
  const pricing = () => services.settings.pricing();
  const panels = new ComparisonPanels(services.context.extensionUri);

  const compareSweep = async (uri: vscode.Uri): Promise<void> => {
    const tracked = await queue.refresh(uri);
    if (!tracked?.sweep) return void vscode.window.showErrorMessage(tracked?.problem ?? 'The sweep file could not be read.');
    const sweep = tracked.sweep;
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Reading the evaluations of ${sweep.name}…`, cancellable: true },
      async (_p, token) => {
        const controller = new AbortController();
        token.onCancellationRequested(() => controller.abort());
        const deadline = viewDeadline(controller.signal);
        try {
          const { grid, state, comparison } = await sweepComparison(services.aws, sweep, pricing(), deadline.signal);
          const p = state.progress;
          const notes = [
            `${p.done} of ${p.total} evaluations completed${p.running ? `, ${p.running} running` : ''}${p.waiting ? `, ${p.waiting} waiting` : ''}${p.failed ? `, ${p.failed} failed or stopped` : ''}.`,
            ...comparison.skipped.map((s) => `${s.job}: ${s.reason}.`),
          ];
          panels.show(`Sweep ${sweep.name}`, grid, notes);
        } catch (error) {
          const what = `Comparing sweep ${sweep.name}`;
          void vscode.window.showErrorMessage(deadline.timedOut() ? deadline.sentence(what) : explain(error, what));
        }
      },
    );
  };

  const compareEvaluations = async (clicked?: unknown, selected?: unknown[]) => {
    // A pipeline node of the Jobs view stands for its evaluations (base and fine-tuned).
    const pair =
      (clicked as { kind?: string; jobs?: unknown[] } | undefined)?.kind === 'pipeline' ? (clicked as { jobs: unknown[] }).jobs : undefined;
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
        const deadline = viewDeadline();
        try {
          const comparison = await comparisonFromJobs(services.aws, region, names, pricing(), deadline.signal);
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
          void vscode.window.showErrorMessage(
            deadline.timedOut() ? deadline.sentence('Comparing evaluations') : explain(error, 'Comparing evaluations'),
          );
        }
      },
    );
  };

  const copy = async (format: 'markdown' | 'csv'): Promise<string | undefined> => {
    const text = panels.copyText(format);
    if (!text) return void vscode.window.showInformationMessage('Open a comparison first (MTRL: Compare Evaluations…).');
    await vscode.env.clipboard.writeText(text);
    void vscode.window.setStatusBarMessage(`Comparison copied as ${format === 'markdown' ? 'Markdown' : 'CSV'}`, 3000);
    return text;
  };

  return { compareSweep, compareEvaluations, copy, dispose: () => panels.dispose() };
}

export type ComparisonCommands = ReturnType<typeof comparisonCommands>;

/** Completed evaluations of the region to choose from, those already given pre-selected. */
async function pickEvaluations(
  services: Services,
  region: string,
  given: string[],
  explain: (e: unknown, a: string) => string,
): Promise<string[] | undefined> {
  const items: vscode.QuickPickItem[] = [];
  try {
    for await (const job of jobsIn(services.aws, region, { JobCategory: 'AgentRFTEvaluation', StatusEquals: 'Completed' })) {
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
