/** A spending limit on one job's token cost, set by the user; `autoStop` only when they chose it. */
export interface Budget {
  dollars: number;
  autoStop: boolean;
}

/** What the guard does once a job's estimated cost passed its budget. */
type BudgetAction = 'none' | 'notify' | 'stop';

/** Acts once per crossing: `warnedAt` holds the budget already warned about, so raising the budget arms the guard again. */
export function budgetAction(cost: number | undefined, budget: Budget | undefined, warnedAt: number | undefined): BudgetAction {
  if (!budget || cost === undefined || cost <= budget.dollars || warnedAt === budget.dollars) return 'none';
  return budget.autoStop ? 'stop' : 'notify';
}

/** A budget from user input ("50", "$50", "49.99"), or a sentence saying what is wrong. */
export function parseBudget(text: string): { dollars: number } | { problem: string } {
  const value = Number(text.trim().replace(/^\$/, '').replace(/,/g, ''));
  if (!text.trim() || !Number.isFinite(value) || value <= 0)
    return { problem: 'Enter the budget in US dollars, a number above 0 (e.g. 50 or 49.99).' };
  return { dollars: Math.round(value * 100) / 100 };
}

/** A job file's optional `Budget` entry, checked; undefined when absent. */
export function budgetFromJobFile(value: unknown): Budget | { problem: string } | undefined {
  if (value === undefined) return undefined;
  const v = value as { Dollars?: unknown; AutoStop?: unknown } | null;
  if (!v || typeof v !== 'object' || typeof v.Dollars !== 'number' || !(v.Dollars > 0))
    return { problem: 'Budget must be { "Dollars": a number above 0, "AutoStop": true or false }.' };
  if (v.AutoStop !== undefined && typeof v.AutoStop !== 'boolean') return { problem: 'Budget.AutoStop must be true or false.' };
  return { dollars: v.Dollars, autoStop: v.AutoStop === true };
}
