import * as vscode from 'vscode';
import { parseRuntimeArn, runSmokeTest, SmokeCancelled, type SmokeResult } from '../../core/smoke';
import type { Services } from '../services';
import { awsSmokeBackend } from '../../services/smoke';
import { SmokeReportDocuments, showSmokeReport } from './reportDocument';
import type { SmokeResultStore } from '../stores';
import { pickRuntime } from './runtimePicker';

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
  const uri = reports.set(result);
  services.output.info(`Smoke test ${name}: ${result.verdict.summary}`);
  await showSmokeReport(uri, services.output);
  const notify = result.verdict.ok ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
  void notify(result.verdict.summary, 'Show Report').then((choice) => (choice ? showSmokeReport(uri, services.output) : undefined));
  return result;
}
