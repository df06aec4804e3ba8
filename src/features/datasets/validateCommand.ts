import * as vscode from 'vscode';
import { parseS3Uri } from '../../core/s3/location';
import { DatasetUnreadable } from '../../services/datasets/sources';
import { validateDatasets } from '../../services/datasets/validate';
import { errorCount, formatFromName, roleFromName, type DatasetReport } from '../../core/dataset';
import type { Services } from '../services';
import { readDatasetSettings } from './settings';
import type { DatasetValidation } from './validation';

export const DATASET_FILTERS = { Datasets: ['jsonl', 'json', 'csv', 'parquet'] };

function summary(name: string, report: DatasetReport, errors: number): string {
  const warnings = report.findings.filter((f) => f.severity === 'warning').length + report.omitted.warning;
  const found =
    errors || warnings ? `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}` : 'no problems';
  return `${name}: ${report.rows.toLocaleString('en')} rows (${report.format}), ${found}.`;
}

/** Where to validate: the argument, or the user's choice of the active file, a picked file or an s3:// URI. */
async function chooseTarget(arg: unknown): Promise<vscode.Uri | string | undefined> {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === 'string' && parseS3Uri(arg)) return arg;
  const active = vscode.window.activeTextEditor?.document.uri;
  const items: (vscode.QuickPickItem & { id: string })[] = [];
  if (active && formatFromName(active.path))
    items.push({ id: 'active', label: '$(file) Active file', description: vscode.workspace.asRelativePath(active) });
  items.push({ id: 'pick', label: '$(folder-opened) Pick a file…', description: 'JSON Lines, JSON, CSV or Parquet' });
  items.push({ id: 's3', label: '$(cloud) An s3:// URI…', description: 'streamed from S3' });
  // Run from the walkthrough, whose step takes focus back as it ticks: the question must not close under the user.
  const choice = await vscode.window.showQuickPick(items, {
    title: 'MTRL: Validate Dataset',
    placeHolder: 'Which dataset?',
    ignoreFocusOut: true,
  });
  if (!choice) return undefined;
  if (choice.id === 'active') return active;
  if (choice.id === 'pick')
    return (await vscode.window.showOpenDialog({ canSelectMany: false, filters: DATASET_FILTERS, title: 'Validate Dataset' }))?.[0];
  return vscode.window.showInputBox({
    title: 'MTRL: Validate Dataset',
    prompt: 'The dataset object in S3',
    placeHolder: 's3://bucket/wordle/train.jsonl',
    validateInput: (v) =>
      !parseS3Uri(v)?.key
        ? 'Type an s3://bucket/key URI.'
        : formatFromName(v)
          ? undefined
          : 'The key must end in .jsonl, .json, .csv or .parquet.',
  });
}

async function validateS3(services: Services, uri: string): Promise<DatasetReport | undefined> {
  const settings = readDatasetSettings();
  const report = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Validating ${uri}`, cancellable: true },
    async (_progress, token) => {
      const controller = new AbortController();
      token.onCancellationRequested(() => controller.abort());
      try {
        const { files } = await validateDatasets(
          // An object whose key names no format is read as JSON Lines, the service's own.
          [{ source: uri, role: roleFromName(uri) }],
          {
            format: formatFromName(uri) ?? 'jsonl',
            batchSize: { otherwise: { batchSize: settings.batchSize, source: 'the mtrl.datasets.batchSize setting' } },
            convention: settings.convention,
            trackKeys: false,
          },
          { aws: services.aws, explain: services.explain, signal: controller.signal },
        );
        return files[0].report;
      } catch (error) {
        if (!controller.signal.aborted)
          void vscode.window.showErrorMessage(
            error instanceof DatasetUnreadable ? error.message : services.explain(error, `Reading ${uri}`),
          );
        return undefined;
      }
    },
  );
  if (!report) return undefined;
  const errors = errorCount(report);
  const text = summary(uri, report, errors);
  services.output.info(text);
  for (const f of report.findings) services.output.info(`  ${f.row ? `row ${f.row}` : 'file'}: ${f.severity} ${f.code}: ${f.message}`);
  // Not awaited: the command's result must not wait for the user to dismiss the message.
  void (
    errors ? vscode.window.showWarningMessage(text, 'Show Findings') : vscode.window.showInformationMessage(text, 'Show Findings')
  ).then((pick) => pick && services.output.show(true));
  return report;
}

/** `MTRL: Validate Dataset`: the active file, a picked file (Parquet too: diagnostics on its URI) or an s3:// URI streamed from S3. Returns the report, for scripts and tests. */
export async function validateDatasetCommand(
  services: Services,
  validation: DatasetValidation,
  arg?: unknown,
): Promise<DatasetReport | undefined> {
  const target = await chooseTarget(arg);
  if (!target) return undefined;
  if (typeof target === 'string') return validateS3(services, target);
  if (!formatFromName(target.path)) {
    void vscode.window.showErrorMessage(
      `${vscode.workspace.asRelativePath(target)} is not a dataset: use a .jsonl, .json, .csv or .parquet file.`,
    );
    return undefined;
  }
  const name = vscode.workspace.asRelativePath(target);
  const state = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Validating ${name}`, cancellable: true },
    (_p, token) => {
      token.onCancellationRequested(() => validation.cancel(target));
      return validation.validate(target);
    },
  );
  if (!state) return undefined;
  const text = summary(name, state.report, state.errors);
  if (!state.errors) void vscode.window.showInformationMessage(text);
  else
    void vscode.window
      .showWarningMessage(text, 'Show Problems')
      .then((pick) => pick && vscode.commands.executeCommand('workbench.actions.view.problems'));
  return state.report;
}
