import * as vscode from 'vscode';
import { estimateText, parseSweep, sweepEstimate, type Sweep } from '../../core/evaluation/sweep';
import { jobsIn } from '../../services/jobs/lookup';
import { runtimeDetails, runtimesIn } from '../../services/runtimes';
import type { Services } from '../services';

const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

async function ask(prompt: string, value: string, validate?: (text: string) => string | undefined): Promise<string | undefined> {
  return vscode.window.showInputBox({ prompt, value, ignoreFocusOut: true, validateInput: validate });
}

/** Asks for a sweep step by step, shows what it will cost, and writes a `*.mtrl-sweep.json` the user can edit and start. */
export async function newSweepWizard(
  services: Services,
  explain: (error: unknown, action: string) => string,
): Promise<vscode.Uri | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) {
    void vscode.window.showErrorMessage('Open a folder first: the sweep is written there as <name>.mtrl-sweep.json.');
    return undefined;
  }
  const region = services.aws.current.region;
  const last = services.stores.sweepAnswers.get() ?? {};
  const name = await ask('1/8 Sweep name (job names are derived from it)', 'wordle-eval-sweep', (t) =>
    /^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,39}$/.test(t) ? undefined : '1–40 letters, digits and hyphens',
  );
  if (!name) return undefined;

  let trainingJobs: vscode.QuickPickItem[] = [];
  let runtimes: (vscode.QuickPickItem & { arn: string; effort?: string })[] = [];
  let baseModelArn = last.baseModelArn;
  try {
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Reading completed training jobs and agent runtimes…', cancellable: true },
      async (_p, token) => {
        const controller = new AbortController();
        token.onCancellationRequested(() => controller.abort());
        for await (const job of jobsIn(
          services.aws,
          services.aws.current.region,
          { JobCategory: 'AgentRFT', StatusEquals: 'Completed' },
          controller.signal,
        )) {
          if (job.JobName) trainingJobs.push({ label: job.JobName, description: 'adapter of this training job' });
        }
        for await (const runtime of runtimesIn(services.aws, undefined, controller.signal)) {
          if (!runtime.agentRuntimeArn || runtime.status !== 'READY') continue;
          const details = await runtimeDetails(services.aws, runtime.agentRuntimeId ?? '', undefined, controller.signal).catch(
            () => undefined,
          );
          const effort = details?.environmentVariables?.REASONING_EFFORT;
          runtimes.push({
            label: runtime.agentRuntimeName ?? runtime.agentRuntimeId ?? runtime.agentRuntimeArn,
            description: effort ? `REASONING_EFFORT=${effort}` : undefined,
            arn: runtime.agentRuntimeArn,
            effort,
          });
        }
      },
    );
  } catch (error) {
    void vscode.window.showWarningMessage(explain(error, 'Listing training jobs and runtimes'));
    trainingJobs = [];
    runtimes = [];
  }
  const models = await vscode.window.showQuickPick(
    [{ label: 'base', description: 'the base model, no adapter', picked: true }, ...trainingJobs],
    {
      title: "2/8 Models to evaluate (the base model and completed training jobs' adapters)",
      canPickMany: true,
      ignoreFocusOut: true,
    },
  );
  if (!models?.length) return undefined;
  let chosenRuntimes = runtimes.length
    ? await vscode.window.showQuickPick(runtimes, {
        title: "3/8 Agent runtimes: reasoning effort is the runtime's REASONING_EFFORT, so one runtime per effort",
        canPickMany: true,
        ignoreFocusOut: true,
      })
    : undefined;
  if (!chosenRuntimes?.length) {
    const arn = await ask('3/8 Agent runtime ARN (no READY runtime was listed)', '', (t) =>
      /:runtime\//.test(t) ? undefined : 'arn:aws:bedrock-agentcore:<region>:<account>:runtime/<id>',
    );
    if (!arn) return undefined;
    chosenRuntimes = [{ label: arn.split('runtime/')[1], arn }];
  }
  const temperatures = await ask('4/8 Temperatures, comma separated', '1.0');
  if (temperatures === undefined) return undefined;
  const topP = await ask('5/8 sampling_top_p values, comma separated', '1.0');
  if (topP === undefined) return undefined;
  const maxTokens = await ask('6/8 sampling_max_tokens values, comma separated (8192 is the service maximum)', '8192');
  if (maxTokens === undefined) return undefined;
  const evaluationUri = await ask('7/8 Evaluation dataset (S3 URI of held-out rows)', last.evaluationUri ?? '', (t) =>
    /^s3:\/\/[^/]+/.test(t) ? undefined : 's3://bucket/key',
  );
  if (!evaluationUri) return undefined;
  const roleArn = await ask('8/8 Job role ARN (trusts job.sagemaker.amazonaws.com)', last.roleArn ?? '', (t) =>
    /^arn:aws[a-z-]*:iam::\d{12}:role\//.test(t) ? undefined : 'arn:aws:iam::<account>:role/<name>',
  );
  if (!roleArn) return undefined;
  const outputPath = last.outputPath ?? evaluationUri.replace(/\/[^/]*$/, '/eval-output');
  baseModelArn ??= `arn:aws:sagemaker:${region}:aws:hub-content/SageMakerPublicHub/Model/openai-reasoning-gpt-oss-20b`;

  const sweep: Sweep = {
    name,
    region,
    roleArn,
    baseModelArn,
    evaluationUri,
    outputPath,
    models: models.map((m) => (m.label === 'base' ? { label: 'base' } : { label: m.label, trainingJob: m.label })),
    runtimes: chosenRuntimes.map((r) => ({ label: ('effort' in r && r.effort) || r.label, runtimeArn: r.arn })),
    grid: { temperature: list(temperatures), sampling_top_p: list(topP), sampling_max_tokens: list(maxTokens) },
  };
  const problems = parseSweep(JSON.stringify(sweep)).problems;
  if (problems.length) {
    void vscode.window.showErrorMessage(`The sweep is not valid: ${problems.map((p) => p.message).join(' ')}`);
    return undefined;
  }
  await services.stores.sweepAnswers.set({ evaluationUri, outputPath, roleArn, baseModelArn });
  const uri = vscode.Uri.joinPath(folder.uri, `${name}.mtrl-sweep.json`);
  const exists = await vscode.workspace.fs.stat(uri).then(
    () => true,
    () => false,
  );
  const estimate = estimateText(sweepEstimate(sweep));
  const write = exists ? 'Overwrite' : 'Write Sweep File';
  const pick = await vscode.window.showInformationMessage(
    `${exists ? `${vscode.workspace.asRelativePath(uri)} exists. ` : ''}${estimate}. Nothing is launched until you start it.`,
    { modal: true },
    write,
  );
  if (pick !== write) return undefined;
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(`${JSON.stringify(sweep, null, 2)}\n`));
  await vscode.window.showTextDocument(uri);
  return uri;
}
