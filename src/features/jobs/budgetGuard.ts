import * as vscode from 'vscode';
import { formatDollars, type PricingTable } from '../../core/jobs/pricing';
import { jobCost } from '../../core/jobs/summary';
import { budgetAction, parseBudget, type Budget } from '../../core/jobs/budget';
import type { BudgetStore } from '../stores';
import type { JobNode } from '../../services/jobs/nodes';

interface BudgetGuardContext {
  store: BudgetStore;
  pricing: () => PricingTable;
  stop: (node: JobNode) => Promise<void>;
  output: vscode.LogOutputChannel;
}

/** Run after every poll: warns once when a running job's estimated token cost passes its budget, and stops it only if the user chose that. */
export async function checkBudgets(ctx: BudgetGuardContext, running: readonly JobNode[]): Promise<void> {
  for (const node of running) {
    const budget = ctx.store.get(node.arn);
    const cost = node.details ? jobCost(node.details, ctx.pricing())?.total : undefined;
    const action = budgetAction(cost, budget, budget?.warnedAt);
    if (action === 'none' || !budget || cost === undefined) continue;
    await ctx.store.warned(node.arn, budget.dollars);
    const text = `Job ${node.jobName}'s estimated token cost ${formatDollars(cost)} passed its budget of ${formatDollars(budget.dollars)}.`;
    ctx.output.warn(text);
    if (action === 'stop') {
      await ctx.stop(node).then(
        () => vscode.window.showWarningMessage(`${text} It was stopped, as its budget asked.`),
        (error: unknown) => vscode.window.showErrorMessage(`${text} Stopping it failed: ${(error as Error).message}`),
      );
      continue;
    }
    void vscode.window.showWarningMessage(text, 'Stop job', 'Raise budget').then(async (answer) => {
      if (answer === 'Stop job') await ctx.stop(node);
      if (answer === 'Raise budget') await askBudget(ctx.store, node, Math.ceil(cost * 1.5));
    });
  }
}

/** Asks for a budget and whether to stop automatically; undefined when the user cancelled. `title` numbers the two inputs inside a wizard. */
export async function askForBudget(
  jobName: string,
  current?: Budget,
  suggested?: number,
  title: (what: string) => string = (what) => what,
): Promise<Budget | undefined> {
  const text = await vscode.window.showInputBox({
    title: title(`Budget for ${jobName}`),
    prompt:
      'Estimated token cost in US dollars at which MTRL warns you (BillableTokenUsage × mtrl.pricing; AgentCore compute is not included)',
    value: String(suggested ?? current?.dollars ?? ''),
    ignoreFocusOut: true,
    validateInput: (value) => {
      const parsed = parseBudget(value);
      return 'problem' in parsed ? parsed.problem : undefined;
    },
  });
  if (text === undefined) return undefined;
  const parsed = parseBudget(text);
  if ('problem' in parsed) return undefined;
  const mode = await vscode.window.showQuickPick(
    [
      { label: 'Warn me', description: 'a notification with Stop job and Raise budget', autoStop: false },
      { label: 'Stop the job automatically', description: 'stops it when the estimate passes the budget', autoStop: true },
    ],
    {
      title: title(`When ${jobName} passes ${formatDollars(parsed.dollars)}`),
      placeHolder: current?.autoStop ? 'Now: stop automatically' : 'Now: warn',
      ignoreFocusOut: true,
    },
  );
  return mode ? { dollars: parsed.dollars, autoStop: mode.autoStop } : undefined;
}

/** Asks for a running job's budget and stores it. */
export async function askBudget(
  store: BudgetStore,
  node: { arn: string; jobName: string },
  suggested?: number,
): Promise<Budget | undefined> {
  const budget = await askForBudget(node.jobName, store.get(node.arn), suggested);
  if (budget) await store.set(node.arn, budget);
  return budget;
}
