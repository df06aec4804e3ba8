import * as vscode from 'vscode';
import { planRolloutLogging } from '../../core/rollouts';

/** `MTRL: Insert Rollout Logging`: the log_rollout function and one call before the reward return, as one undoable edit. */
export async function insertRolloutLogging(): Promise<boolean> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'python') {
    void vscode.window.showInformationMessage(
      'Open your agent\'s main.py (the file whose handler returns {"reward": …}), then run MTRL: Insert Rollout Logging again.',
    );
    return false;
  }
  const document = editor.document;
  const plan = planRolloutLogging(document.getText());
  if (plan.kind === 'refused') {
    void vscode.window.showWarningMessage(plan.message);
    return false;
  }
  if (plan.kind === 'already') {
    void vscode.window.showInformationMessage(plan.message);
    return false;
  }
  const eol = document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
  const edit = new vscode.WorkspaceEdit();
  if (plan.callLine !== undefined) edit.insert(document.uri, new vscode.Position(plan.callLine, 0), plan.callText!.replace(/\n/g, eol));
  if (plan.functionLine !== undefined)
    edit.insert(document.uri, new vscode.Position(plan.functionLine, 0), plan.functionText!.replace(/\n/g, eol));
  if (!(await vscode.workspace.applyEdit(edit))) {
    void vscode.window.showErrorMessage(
      `Could not edit ${vscode.workspace.asRelativePath(document.uri)}: the editor refused the change (is it read-only?).`,
    );
    return false;
  }
  void vscode.window.showInformationMessage(
    'Each rollout now logs one mtrl_rollout record (undo with Ctrl+Z). Redeploy the runtime, but never while a training job uses it.',
  );
  return true;
}
