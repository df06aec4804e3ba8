import { NO_DOCUMENT, resumePointOf, resumeTitle } from './checkpoint';
import { describeForecast, forecastOf } from './forecast';
import { mlflowConfigOf, type JobConfigDocument } from './document';
import { defaultHyperparameters, sameValue } from './hyperparameters';
import { formatDollars, formatTokens, modelIdOf, type PricingTable } from './pricing';
import { categoryLabel, progressText } from './status';
import { statusNotes, statusNoteTexts } from './statusNotes';
import { evaluationMetricsOf, jobCost, jobDiagnosis, jobModelId, modelConfigOf } from './summary';
import type { JobDetails } from './job';
import { formatDuration, relativeTime, timelineOf } from './timeline';
import { visibleText } from '../text/display';

/** Escapes text from the service so it cannot inject Markdown or links into the tooltip. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, '\\$&');
}

/** The job's hyperparameters that differ from the defaults of its category and model (unknown names always count). */
export function hyperparametersThatDiffer(job: JobDetails): Array<[string, string]> {
  const defaults = defaultHyperparameters(job.category, jobModelId(job));
  return Object.entries(modelConfigOf(job.document)?.HyperParameters ?? {})
    .map(([name, value]): [string, string] => [name, String(value)])
    .filter(([name, value]) => defaults[name] === undefined || !sameValue(value, defaults[name]));
}

const code = (text: string) => `\`${text.replace(/`/g, "'")}\``;

/** The Markdown tooltip of a job: identity (the whole name), failure diagnosis, configuration, progress, timeline, tokens and cost, MLflow; bidi controls from the service shown as markers. */
export function jobTooltip(job: JobDetails, pricing: PricingTable, now: Date): string {
  const out: string[] = [];
  const secondary = job.secondaryStatus && job.secondaryStatus !== job.status ? ` (${escapeMarkdown(job.secondaryStatus)})` : '';
  out.push(`**${escapeMarkdown(job.name)}** · ${categoryLabel(job.category)} · ${escapeMarkdown(job.status)}${secondary}`, '');
  out.push(
    `Created ${job.created.toISOString()} (${relativeTime(job.created, now)})${job.ended ? `, ended ${job.ended.toISOString()}` : ''}`,
    '',
  );

  const diagnosis = jobDiagnosis(job);
  if (diagnosis) {
    out.push(
      diagnosis.known ? `$(error) **${escapeMarkdown(diagnosis.title)}**: ${escapeMarkdown(diagnosis.fix)}` : '$(error) **Failed**',
      '',
    );
    out.push(`Reason: ${code(diagnosis.reason)}`, '');
  }

  const doc = job.document;
  const model = modelConfigOf(doc);
  const rows: Array<[string, string]> = [['Job ARN', code(job.arn)]];
  if (!doc) rows.push(['Configuration', escapeMarkdown(NO_DOCUMENT)]);
  if (job.roleArn) rows.push(['Role', code(job.roleArn)]);
  if (model?.BaseModelArn) rows.push(['Base model', code(modelIdOf(model.BaseModelArn) ?? model.BaseModelArn)]);
  const runtime = doc?.AgentConfig?.BedrockAgentCoreConfig;
  if (runtime?.AgentRuntimeArn)
    rows.push(['Runtime', `${code(runtime.AgentRuntimeArn)}${runtime.Qualifier ? ` (${escapeMarkdown(runtime.Qualifier)})` : ''}`]);
  const lambda = doc?.AgentConfig?.CustomAgentLambdaConfig?.LambdaArn;
  if (lambda) rows.push(['Agent Lambda', code(lambda)]);
  for (const channel of doc?.InputDataConfig ?? []) {
    const uri = channel.DataSource?.S3DataSource?.S3Uri ?? channel.DataSource?.DatasetSource?.DatasetArn;
    if (uri) rows.push([`Dataset (${escapeMarkdown(channel.ChannelName ?? '?')})`, code(uri)]);
  }
  if (doc?.ModelPackageConfig?.InputModelPackageArn) rows.push(['Input adapter', code(doc.ModelPackageConfig.InputModelPackageArn)]);
  const changed = hyperparametersThatDiffer(job);
  if (changed.length) rows.push(['Hyperparameters (non-default)', changed.map(([k, v]) => code(`${k}=${v}`)).join(', ')]);
  const output = doc?.ServiceOutput;
  const progress = progressText(output?.ProgressInfo, true);
  if (progress) rows.push(['Progress', progress]);
  const resume = resumePointOf(job.category, job.status, output);
  if ('point' in resume) rows.push(['Checkpoint', `${resumeTitle(resume.point)} (right-click: Resume from Checkpoint)`]);
  const forecast = forecastOf(job, pricing, now);
  if (forecast) rows.push(['Forecast', escapeMarkdown(describeForecast(forecast))]);
  const rollouts = output?.RolloutInfo;
  if (typeof rollouts?.Completed === 'number') {
    const n = (v: number) => v.toLocaleString('en-US');
    const beyond = rollouts.Total !== undefined && rollouts.Completed > rollouts.Total;
    rows.push([
      'Rollouts',
      beyond
        ? `${n(rollouts.Total!)} / ${n(rollouts.Total!)} (${n(rollouts.Completed)} run: a restart re-ran some)`
        : `${n(rollouts.Completed)}${rollouts.Total ? ` / ${n(rollouts.Total)}` : ''}`,
    ]);
  }
  const notes = statusNotes(job.transitions, job.status, now);
  const noted = [...statusNoteTexts(notes), ...(notes.phase ? [`step phase ${notes.phase}`] : [])];
  if (noted.length) rows.push(['Status', escapeMarkdown(noted.join(' · '))]);
  const mlflow = output?.MlflowDetails;
  const configured = mlflowConfigOf(doc as JobConfigDocument | undefined);
  const experiment = mlflow?.ExperimentName ?? configured?.MlflowExperimentName;
  const run = mlflow?.RunName ?? configured?.MlflowRunName;
  if (experiment || run)
    rows.push([
      'MLflow',
      [experiment && `experiment ${code(experiment)}`, run && `run ${code(run)}`, mlflow?.RunId && `id ${code(mlflow.RunId)}`]
        .filter(Boolean)
        .join(', '),
    ]);
  if (job.notifications)
    rows.push([
      'Notifications',
      `${escapeMarkdown(job.notifications.events.join(', '))} → ${code(job.notifications.topicArn)}${job.notifications.ruleArn ? ` via rule ${code(job.notifications.ruleArn)}` : ''} (a guess that they arrive: the rule matches training-job events)`,
    ]);
  if (output?.OutputModelPackageArn) rows.push(['Output adapter', code(output.OutputModelPackageArn)]);
  const metrics = evaluationMetricsOf(job);
  if (metrics.length)
    rows.push([
      'Evaluation',
      metrics.map(([name, value]) => `${code(name)} ${Number.isInteger(value) ? value : value.toFixed(4)}`).join(', '),
    ]);
  out.push('| | |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${v} |`), '');

  const usage = output?.BillableTokenUsage;
  if (usage) {
    const cost = jobCost(job, pricing);
    const modelId = jobModelId(job);
    const prices = modelId ? pricing[modelId] : undefined;
    out.push('| Tokens | Count | Per 1M | Cost |', '|---|---:|---:|---:|');
    const dims: Array<[string, number | undefined, number | undefined, number | undefined]> = [
      ['Prefill', usage.PrefillTokenCount, prices?.prefill, cost?.prefill],
      ['Sample', usage.SampleTokenCount, prices?.sample, cost?.sample],
      ['Train', usage.TrainTokenCount, prices?.train, cost?.train],
    ];
    for (const [name, count, price, dollars] of dims) {
      out.push(
        `| ${name} | ${formatTokens(count ?? 0)} | ${price !== undefined ? formatDollars(price) : '–'} | ${dollars !== undefined ? formatDollars(dollars) : '–'} |`,
      );
    }
    out.push(`| **Total** | | | ${cost ? `**${formatDollars(cost.total)}**` : '–'} |`, '');
    out.push(
      cost
        ? '_Estimated from `mtrl.pricing`; AgentCore compute is billed apart._'
        : `_No price for ${code(modelId ?? 'this model')} in \`mtrl.pricing\`._`,
      '',
    );
  }

  const timeline = timelineOf(job.transitions, now);
  if (timeline.length) {
    out.push('| Status | Started | Duration |', '|---|---|---:|');
    for (const entry of timeline) {
      const started = entry.start ? entry.start.toISOString().replace('T', ' ').slice(0, 19) : '–';
      const duration = entry.durationMs !== undefined ? `${formatDuration(entry.durationMs)}${entry.current ? ' so far' : ''}` : '–';
      out.push(`| ${escapeMarkdown(entry.status)} | ${started} | ${duration} |`);
    }
  }
  return visibleText(out.join('\n'));
}
