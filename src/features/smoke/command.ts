import * as vscode from 'vscode';
import { parseRuntimeArn, runSmokeTest, SmokeCancelled, type SmokeResult } from '../../core/smoke';
import type { Services } from '../services';
import { awsSmokeBackend } from '../../services/smoke';
import { SmokeReportDocuments, showSmokeReport } from './reportDocument';
import type { SmokeResultStore } from '../stores';
import { LOCAL_SMOKE, pickRuntime } from './runtimePicker';
import { runLocalSmoke } from '../../services/smokeLocal';
import { findPython } from '../python';
import { agentFileToSmoke, type FileLike } from './agentFile';

/** What the command accepts: `{ runtimeArn }` (tests, other features), a runtime tree node, an ARN string, or nothing (asks). */
type SmokeTarget = { runtimeArn?: string } | string | undefined;

function runtimeArnOf(target: SmokeTarget): string | undefined {
  if (typeof target === 'string') return target;
  return target?.runtimeArn;
}

/** Runs the smoke test with a cancellable progress notification; returns the result (undefined when cancelled). */
export async function smokeTestRuntime(
  services: Services,
  reports: SmokeReportDocuments,
  results: SmokeResultStore,
  target: SmokeTarget,
): Promise<SmokeResult | undefined> {
  const runtimeArn = runtimeArnOf(target) ?? (await pickRuntime(services, results));
  if (!runtimeArn) return undefined;
  // No runtime deployed yet (the walkthrough's step): the same smoke path on an agent file.
  if (runtimeArn === LOCAL_SMOKE) return vscode.commands.executeCommand<SmokeResult | undefined>('mtrl.smokeTestAgentFile');
  if (!parseRuntimeArn(runtimeArn)) {
    void vscode.window.showErrorMessage(
      `"${runtimeArn}" is not an agent runtime ARN (arn:aws:bedrock-agentcore:<region>:<account>:runtime/<id>).`,
    );
    return undefined;
  }
  // Read on every run so a changed setting applies without reload.
  const invokeTimeoutMs = services.settings.get('smoke.invokeTimeoutSeconds') * 1000;
  const logWaitMs = services.settings.get('smoke.logWaitSeconds') * 1000;
  const name = parseRuntimeArn(runtimeArn)?.runtimeId ?? runtimeArn;

  let result: SmokeResult;
  try {
    result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Smoke test of ${name}`, cancellable: true },
      async (progress, token) => {
        const controller = new AbortController();
        const subscription = token.onCancellationRequested(() => controller.abort());
        try {
          return await runSmokeTest(awsSmokeBackend(services.aws), {
            runtimeArn,
            invokeTimeoutMs,
            logWaitMs,
            signal: controller.signal,
            onStep: (message) => {
              progress.report({ message });
              services.output.info(`Smoke test ${name}: ${message}`);
            },
          });
        } finally {
          subscription.dispose();
        }
      },
    );
  } catch (error) {
    if (error instanceof SmokeCancelled) {
      services.output.info(`Smoke test ${name}: cancelled`);
      return undefined;
    }
    const message = error instanceof Error ? error.message : String(error);
    services.output.error(`Smoke test ${name}: ${message}`);
    void vscode.window.showErrorMessage(`Smoke test of ${name} could not run: ${message}`);
    return undefined;
  }

  await results.remember(runtimeArn, { ok: result.verdict.ok, at: new Date().toISOString(), summary: result.verdict.summary });
  return showResult(services, reports, name, result);
}

async function showResult(services: Services, reports: SmokeReportDocuments, name: string, result: SmokeResult): Promise<SmokeResult> {
  const uri = reports.set(result);
  services.output.info(`Smoke test ${name}: ${result.verdict.summary}`);
  await showSmokeReport(uri, services.output);
  const notify = result.verdict.ok ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
  void notify(result.verdict.summary, 'Show Report').then((choice) => (choice ? showSmokeReport(uri, services.output) : undefined));
  return result;
}

/** The editor's `mtrl smoke --local`: the agent file (explorer, editor title, or the active editor) against the local Job Runtime. */
export async function smokeTestAgentFile(
  services: Services,
  reports: SmokeReportDocuments,
  target: vscode.Uri | undefined,
): Promise<SmokeResult | undefined> {
  const document = vscode.window.activeTextEditor?.document;
  const active: FileLike | undefined = document && {
    scheme: document.uri.scheme,
    fsPath: document.uri.fsPath,
    languageId: document.languageId,
  };
  const chosen = agentFileToSmoke(target instanceof vscode.Uri ? target : undefined, active);
  if ('problem' in chosen) {
    void vscode.window.showErrorMessage(chosen.problem);
    return undefined;
  }
  const name = chosen.file.split(/[\\/]/).pop() ?? chosen.file;
  try {
    const python = (await findPython(vscode.Uri.file(chosen.file))).path;
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Smoke test of ${name} (local)`, cancellable: true },
      async (progress, token) => {
        const controller = new AbortController();
        const subscription = token.onCancellationRequested(() => controller.abort());
        try {
          return await runLocalSmoke({
            python,
            runnerScript: services.context.asAbsolutePath('dist/python/agent_runner.py'),
            lintScript: services.context.asAbsolutePath('dist/python/agent_lint.py'),
            agentFile: chosen.file,
            timeoutMs: services.settings.get('smoke.invokeTimeoutSeconds') * 1000,
            signal: controller.signal,
            onStep: (message) => progress.report({ message }),
          });
        } finally {
          subscription.dispose();
        }
      },
    );
    return await showResult(services, reports, name, result);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    services.output.error(`Smoke test ${name}: ${message}`);
    void vscode.window.showErrorMessage(`Smoke test of ${name} could not run: ${message}`);
    return undefined;
  }
}
