import type * as vscode from 'vscode';

/** A burst of saves (format on save, save all) runs a preview once, this long after the last. */
const SAVE_DEBOUNCE_MS = 400;

/** Runs `what`'s preview of a file once its saves settle, per file; a failure is logged as `<what> of <path> failed`. */
export class AfterSave implements vscode.Disposable {
  private readonly pending = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly what: string,
    private readonly run: (uri: vscode.Uri) => Promise<unknown>,
    private readonly log: (message: string) => void,
  ) {}

  schedule(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.pending.get(key));
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        this.run(uri).catch((error: unknown) => this.log(`${this.what} of ${uri.fsPath} failed: ${String(error)}`));
      }, SAVE_DEBOUNCE_MS),
    );
  }

  dispose(): void {
    this.pending.forEach(clearTimeout);
  }
}
