import * as vscode from 'vscode';
import { duplicateKeyChecks } from '../../core/jobs/duplicateKeys';
import { keyOffset, parseJobFile, type JobFile } from '../../core/jobs/jobfile';
import type { CheckResult } from '../../core/jobs/preflight';
import type { Services } from '../services';
import type { LaunchResult } from '../../services/launch/launch';
import type { Review } from '../../services/launch/review';
import type { Launcher, LaunchOptions } from './launcher';
import { setting } from '../settings';

export const JOB_FILE_SELECTOR: vscode.DocumentSelector = { pattern: '**/*.mtrl.json' };

const isJobFile = (doc: vscode.TextDocument) => doc.uri.path.endsWith('.mtrl.json');

function rangeOf(doc: vscode.TextDocument, key?: string, offset?: number): vscode.Range {
  const at = key ? keyOffset(doc.getText(), key) : undefined;
  if (at) return new vscode.Range(doc.positionAt(at.offset), doc.positionAt(at.offset + at.length));
  const line = doc.lineAt(offset !== undefined ? doc.positionAt(offset).line : 0);
  return line.range;
}

const SEVERITY = { fail: vscode.DiagnosticSeverity.Error, warn: vscode.DiagnosticSeverity.Warning } as const;

/** Job files: "Validate" and "Launch" lenses on the first line, and diagnostics from the pre-flight checks. */
export class JobFiles implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('mtrl-job-files');
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly lastVerdict = new Map<string, string>();
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(
    private readonly services: Services,
    private readonly launcher: Launcher,
  ) {}

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (!isJobFile(doc)) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    const verdict = this.lastVerdict.get(doc.uri.toString());
    return [
      new vscode.CodeLens(top, {
        title: `$(check) Validate${verdict ? ` (${verdict})` : ''}`,
        command: 'mtrl.validateJobFile',
        arguments: [doc.uri],
        tooltip: 'Run the pre-flight checks against AWS',
      }),
      new vscode.CodeLens(top, {
        title: '$(rocket) Launch',
        command: 'mtrl.launchJobFile',
        arguments: [doc.uri],
        tooltip: 'Check, review and create this job',
      }),
    ];
  }

  /** Parse problems at once, on open and on each edit: they need no AWS call. */
  showParseProblems(doc: vscode.TextDocument): JobFile | undefined {
    if (!isJobFile(doc)) return undefined;
    const parsed = parseJobFile(doc.getText());
    if (parsed.jobFile) {
      const current = this.diagnostics.get(doc.uri) ?? [];
      const repeated = duplicateKeyChecks(doc.getText()).map((c) =>
        Object.assign(
          new vscode.Diagnostic(rangeOf(doc, undefined, c.offset), `${c.message} Fix: ${c.fix}`, vscode.DiagnosticSeverity.Warning),
          { source: 'MTRL job file' },
        ),
      );
      this.diagnostics.set(doc.uri, [...current.filter((d) => d.source === 'MTRL pre-flight'), ...repeated]);
      return parsed.jobFile;
    }
    this.diagnostics.set(
      doc.uri,
      parsed.problems.map((p) =>
        Object.assign(new vscode.Diagnostic(rangeOf(doc, p.key, p.offset), p.message, vscode.DiagnosticSeverity.Error), {
          source: 'MTRL job file',
        }),
      ),
    );
    return undefined;
  }

  private showChecks(doc: vscode.TextDocument, checks: readonly CheckResult[]): void {
    const diagnostics = checks
      .filter((c): c is CheckResult & { level: 'fail' | 'warn' } => c.level !== 'pass')
      .map((c) =>
        Object.assign(new vscode.Diagnostic(rangeOf(doc, c.key), c.fix ? `${c.message} Fix: ${c.fix}` : c.message, SEVERITY[c.level]), {
          source: 'MTRL pre-flight',
          code: c.check,
        }),
      );
    const repeated = (this.diagnostics.get(doc.uri) ?? []).filter((d) => d.source === 'MTRL job file');
    this.diagnostics.set(doc.uri, [...diagnostics, ...repeated]);
    const fails = checks.filter((c) => c.level === 'fail').length;
    const warns = checks.filter((c) => c.level === 'warn').length;
    this.lastVerdict.set(
      doc.uri.toString(),
      fails ? `${fails} error${fails > 1 ? 's' : ''}` : warns ? `${warns} warning${warns > 1 ? 's' : ''}` : 'passed',
    );
    this.changed.fire();
  }

  private async document(uri?: vscode.Uri): Promise<vscode.TextDocument | undefined> {
    const target = uri ?? vscode.window.activeTextEditor?.document.uri;
    if (!target || !target.path.endsWith('.mtrl.json')) {
      void vscode.window.showInformationMessage(
        'Open a *.mtrl.json job file first, or create one with "MTRL: Launch Training Job" → Save as job file.',
      );
      return undefined;
    }
    return vscode.workspace.openTextDocument(target);
  }

  private parsed(doc: vscode.TextDocument, interactive: boolean): JobFile | undefined {
    const job = this.showParseProblems(doc);
    if (!job && interactive)
      void vscode.window.showErrorMessage(`${vscode.workspace.asRelativePath(doc.uri)} is not a valid job file: see the Problems panel.`);
    return job;
  }

  /** On save (`mtrl.launch.validateOnSave`): the checks run quietly; a result for an older text is dropped. */
  async validateSaved(doc: vscode.TextDocument): Promise<void> {
    if (!isJobFile(doc) || !setting('launch.validateOnSave', doc.uri)) return;
    const job = this.showParseProblems(doc);
    if (!job) return;
    const version = doc.version;
    const review = await this.launcher.review(job, { quiet: true }).catch((error: unknown) => {
      this.services.output.warn(`Checking ${job.JobName} on save failed: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    });
    if (review && !doc.isClosed && doc.version === version) this.showChecks(doc, review.checks);
  }

  /** `mtrl.validateJobFile`: every pre-flight check, as diagnostics and a one-line summary; returns the review. */
  async validate(uri?: vscode.Uri, options: { confirm?: boolean } = {}): Promise<Review | undefined> {
    const doc = await this.document(uri);
    const job = doc && this.parsed(doc, options.confirm !== false);
    if (!doc || !job) return undefined;
    const review = await this.launcher.review(job);
    if (!review) return undefined;
    this.showChecks(doc, review.checks);
    if (options.confirm !== false) {
      const summary = this.lastVerdict.get(doc.uri.toString());
      const show =
        review.verdict === 'fail'
          ? vscode.window.showErrorMessage
          : review.verdict === 'warn'
            ? vscode.window.showWarningMessage
            : vscode.window.showInformationMessage;
      void show(`${job.JobName}: pre-flight ${summary}. ${review.arithmetic[0] ?? ''}`);
    }
    return review;
  }

  /** `mtrl.launchJobFile`: checks, the review (unless `confirm: false`, test-only), then CreateJob. */
  async launch(uri?: vscode.Uri, options: LaunchOptions = {}): Promise<LaunchResult | undefined> {
    const doc = await this.document(uri);
    const job = doc && this.parsed(doc, options.confirm !== false);
    if (!doc || !job) return undefined;
    if (doc.isDirty) await doc.save();
    const result = await this.launcher.launch(job, { ...options, onReviewed: (review) => this.showChecks(doc, review.checks) });
    return result.review ? result : undefined;
  }

  dispose(): void {
    this.diagnostics.dispose();
    this.changed.dispose();
  }
}
