/** Token prices per model, in US dollars per million tokens: estimates the user can edit (`mtrl.pricing`). */
export interface TokenPrices {
  prefill: number;
  sample: number;
  train: number;
}

export type PricingTable = Record<string, TokenPrices>;

/** `ServiceOutput.BillableTokenUsage`; any count may be missing early in a job. */
export interface BillableTokenUsage {
  PrefillTokenCount?: number;
  SampleTokenCount?: number;
  TrainTokenCount?: number;
}

/** Prices from the public gpt-oss-20b Wordle write-up; other models only through the setting. */
export const DEFAULT_PRICING: PricingTable = {
  'openai-reasoning-gpt-oss-20b': { prefill: 0.12, sample: 0.3, train: 0.36 },
};

const DIMENSIONS = ['prefill', 'sample', 'train'] as const;

/** The hub model id at the end of a base model ARN (`…/hub-content/SageMakerPublicHub/Model/<id>`), or the value itself. */
export function modelIdOf(baseModelArn: string | undefined): string | undefined {
  if (!baseModelArn) return undefined;
  const match = /\/Model\/([^/]+)(?:\/[^/]*)?$/.exec(baseModelArn);
  return match ? match[1] : baseModelArn;
}

/** The setting's table merged over the defaults, and a sentence for each entry that could not be used. */
export function pricingFromSetting(value: unknown): { table: PricingTable; problems: string[] } {
  const table: PricingTable = { ...DEFAULT_PRICING };
  const problems: string[] = [];
  if (value === undefined || value === null) return { table, problems };
  if (typeof value !== 'object' || Array.isArray(value)) {
    problems.push(
      'mtrl.pricing must be an object mapping a model id to { "prefill", "sample", "train" } prices per 1M tokens; using the defaults.',
    );
    return { table, problems };
  }
  for (const [model, entry] of Object.entries(value as Record<string, unknown>)) {
    const prices = entry as Partial<Record<(typeof DIMENSIONS)[number], unknown>> | null;
    const bad = DIMENSIONS.filter(
      (d) => typeof prices?.[d] !== 'number' || !Number.isFinite(prices[d] as number) || (prices[d] as number) < 0,
    );
    if (bad.length) {
      problems.push(`mtrl.pricing["${model}"] needs non-negative numbers for ${bad.join(', ')} (US dollars per 1M tokens); entry ignored.`);
      continue;
    }
    table[model] = { prefill: prices!.prefill as number, sample: prices!.sample as number, train: prices!.train as number };
  }
  return { table, problems };
}

export interface Cost {
  prefill: number;
  sample: number;
  train: number;
  total: number;
}

/** Dollars for a job's token usage; undefined when there is no usage or no price for the model. */
export function costOf(usage: BillableTokenUsage | undefined, prices: TokenPrices | undefined): Cost | undefined {
  if (!usage || !prices) return undefined;
  const prefill = ((usage.PrefillTokenCount ?? 0) * prices.prefill) / 1e6;
  const sample = ((usage.SampleTokenCount ?? 0) * prices.sample) / 1e6;
  const train = ((usage.TrainTokenCount ?? 0) * prices.train) / 1e6;
  return { prefill, sample, train, total: prefill + sample + train };
}

/** "$338.50"; cents below a dollar are kept, e.g. "$0.04". */
export function formatDollars(amount: number): string {
  return `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** "491.6M", "12.3k", "950": token counts at a glance. */
export function formatTokens(count: number): string {
  if (count >= 1e9) return `${(count / 1e9).toFixed(1)}B`;
  if (count >= 1e6) return `${(count / 1e6).toFixed(1)}M`;
  if (count >= 1e3) return `${(count / 1e3).toFixed(1)}k`;
  return String(count);
}
