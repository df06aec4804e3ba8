import * as vscode from 'vscode';
import { fileStem, fixEdits, rowRanges, type FixKind } from '../../core/dataset';
import { editorFormat } from './settings';

interface Offer {
  kind: FixKind;
  title: string;
  /** Offered on the one row too, not only for the whole file. */
  row?: string;
}

const OFFERS: Record<string, Offer> = {
  'flat-row': { kind: 'wrap', title: 'Wrap all flat rows for the service', row: 'Wrap this row for the service' },
  'missing-id': { kind: 'ids', title: 'Add missing ids (<stem>_%04d)' },
  'duplicate-id': { kind: 'duplicates', title: 'Remove exact duplicate rows' },
  'duplicate-answer': { kind: 'duplicates', title: 'Remove exact duplicate rows' },
  'bad-answer': { kind: 'answers', title: 'Normalize answers (trim, lowercase)' },
};

/** The dataset quick fixes: each is one WorkspaceEdit, so one undo reverts it. */
export class DatasetQuickFixes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const format = editorFormat(document.uri);
    if (format !== 'jsonl' && format !== 'json') return [];
    const ours = context.diagnostics.filter((d) => d.source === 'MTRL' && typeof d.code === 'string' && d.code in OFFERS);
    if (!ours.length) return [];
    const text = document.getText();
    const stem = fileStem(document.uri.path);
    const actions: vscode.CodeAction[] = [];
    const seen = new Set<string>();
    const add = (title: string, kind: FixKind, diagnostic: vscode.Diagnostic, only?: [number, number]) => {
      if (seen.has(title)) return;
      const edits = fixEdits(text, format, kind, { stem: kind === 'ids' ? stem : '', only });
      if (!edits.length) return;
      seen.add(title);
      const edit = new vscode.WorkspaceEdit();
      for (const e of edits) edit.replace(document.uri, new vscode.Range(document.positionAt(e.start), document.positionAt(e.end)), e.text);
      const action = new vscode.CodeAction(kind === 'ids' ? title.replace('<stem>', stem) : title, vscode.CodeActionKind.QuickFix);
      action.edit = edit;
      action.diagnostics = [diagnostic];
      action.isPreferred = only !== undefined;
      actions.push(action);
    };
    for (const diagnostic of ours) {
      const offer = OFFERS[diagnostic.code as string];
      if (offer.row) {
        const at = document.offsetAt(diagnostic.range.start);
        const row = rowRanges(text, format).find(([s, e]) => s <= at && at <= e);
        if (row) add(offer.row, offer.kind, diagnostic, row);
      }
      add(offer.title, offer.kind, diagnostic);
    }
    return actions;
  }
}
