import * as vscode from 'vscode';
import {
  closeRow,
  fileStem,
  fixEdits,
  misspelledKey,
  renameTaskKey,
  rowRanges,
  serializePrompt,
  wrapFlatRow,
  type FixKind,
} from '../../core/dataset';
import { editorFormat } from './settings';

const TITLES: Record<string, { kind: FixKind; title: string }> = {
  'flat-row': { kind: 'wrap', title: 'Wrap all flat rows for the service' },
  'prompt-not-string': { kind: 'serialize', title: 'Serialize every object prompt as a JSON string' },
  'missing-id': { kind: 'ids', title: 'Add missing ids (<stem>_%04d)' },
  'duplicate-id': { kind: 'duplicates', title: 'Remove exact duplicate rows' },
  'duplicate-answer': { kind: 'duplicates', title: 'Remove exact duplicate rows' },
  'duplicate-prompt': { kind: 'duplicates', title: 'Remove exact duplicate rows' },
  'bad-answer': { kind: 'answers', title: 'Normalize answers (trim, lowercase)' },
};

/** The fixes of one row, offered on the row under the diagnostic as well as for the whole file. */
const ROW_FIXES: Partial<Record<FixKind, { fix: (row: string) => string | undefined; title: string }>> = {
  wrap: { fix: wrapFlatRow, title: 'Wrap this row for the service' },
  serialize: { fix: serializePrompt, title: 'Serialize this prompt as a JSON string' },
};

/** A whole-file fix whose edit is computed only when chosen, so the light bulb stays cheap on large files. */
class FileFix extends vscode.CodeAction {
  constructor(
    title: string,
    readonly document: vscode.TextDocument,
    readonly fix: FixKind,
    readonly format: 'jsonl' | 'json',
    diagnostic: vscode.Diagnostic,
  ) {
    super(title, vscode.CodeActionKind.QuickFix);
    this.diagnostics = [diagnostic];
  }
}

function toWorkspaceEdit(document: vscode.TextDocument, edits: { start: number; end: number; text: string }[]): vscode.WorkspaceEdit {
  const edit = new vscode.WorkspaceEdit();
  for (const e of edits) edit.replace(document.uri, new vscode.Range(document.positionAt(e.start), document.positionAt(e.end)), e.text);
  return edit;
}

/** The dataset quick fixes: each is one WorkspaceEdit, so one undo reverts it. */
export class DatasetQuickFixes implements vscode.CodeActionProvider<vscode.CodeAction> {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const format = editorFormat(document.uri);
    if (format !== 'jsonl' && format !== 'json') return [];
    const stem = fileStem(document.uri.path);
    const actions: vscode.CodeAction[] = [];
    const titles = new Set<string>();
    for (const diagnostic of context.diagnostics) {
      const repair = diagnostic.source === 'MTRL' ? this.repairRow(document, format, diagnostic) : undefined;
      if (repair) actions.push(repair);
      const offer = diagnostic.source === 'MTRL' && typeof diagnostic.code === 'string' ? TITLES[diagnostic.code] : undefined;
      if (!offer) continue;
      if (ROW_FIXES[offer.kind]) {
        const row = this.fixRow(document, format, diagnostic, offer.kind);
        if (row) actions.push(row);
        // A null or number prompt has no structure to serialize.
        else if (offer.kind === 'serialize') continue;
      }
      if (offer.kind === 'duplicates' && !this.exactDuplicate(document, format, diagnostic)) continue;
      const title = offer.title.replace('<stem>', stem);
      if (titles.has(title)) continue;
      titles.add(title);
      actions.push(new FileFix(title, document, offer.kind, format, diagnostic));
    }
    return actions;
  }

  resolveCodeAction(action: vscode.CodeAction): vscode.CodeAction {
    if (action instanceof FileFix) {
      const text = action.document.getText();
      action.edit = toWorkspaceEdit(
        action.document,
        fixEdits(text, action.format, action.fix, { stem: fileStem(action.document.uri.path) }),
      );
    }
    return action;
  }

  /** The row under a diagnostic: its line in JSON Lines, its element in a JSON array. */
  private rowRange(document: vscode.TextDocument, format: 'jsonl' | 'json', diagnostic: vscode.Diagnostic): vscode.Range | undefined {
    if (format === 'jsonl') return document.lineAt(diagnostic.range.start.line).range;
    const at = document.offsetAt(diagnostic.range.start);
    const row = rowRanges(document.getText(), 'json').find(([s, e]) => s <= at && at <= e);
    return row ? new vscode.Range(document.positionAt(row[0]), document.positionAt(row[1])) : undefined;
  }

  private rowAction(
    title: string,
    document: vscode.TextDocument,
    range: vscode.Range,
    text: string,
    diagnostic: vscode.Diagnostic,
  ): vscode.CodeAction {
    const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
    action.edit = new vscode.WorkspaceEdit();
    action.edit.replace(document.uri, range, text);
    action.diagnostics = [diagnostic];
    action.isPreferred = true;
    return action;
  }

  /** "Wrap this row", "Serialize this prompt": the row under the diagnostic, computed now since it is one row. */
  private fixRow(
    document: vscode.TextDocument,
    format: 'jsonl' | 'json',
    diagnostic: vscode.Diagnostic,
    kind: FixKind,
  ): vscode.CodeAction | undefined {
    const { fix, title } = ROW_FIXES[kind]!;
    const range = this.rowRange(document, format, diagnostic);
    const fixed = range && fix(document.getText(range));
    return range && fixed !== undefined ? this.rowAction(title, document, range, fixed, diagnostic) : undefined;
  }

  /** A misspelled task key (`answr` → `answer`) or a missing closing brace, on the one row of JSON Lines. */
  private repairRow(document: vscode.TextDocument, format: 'jsonl' | 'json', diagnostic: vscode.Diagnostic): vscode.CodeAction | undefined {
    // A JSON array's broken element has no row range to repair in place; JSON Lines rows are lines.
    if (format !== 'jsonl') return undefined;
    const range = document.lineAt(diagnostic.range.start.line).range;
    const text = document.getText(range);
    if (diagnostic.code === 'missing-answer' || diagnostic.code === 'missing-id') {
      const wanted = diagnostic.code === 'missing-answer' ? 'answer' : 'id';
      const key = misspelledKey(text, wanted);
      const renamed = key && renameTaskKey(text, key, wanted);
      return renamed ? this.rowAction(`Rename "${key}" to "${wanted}"`, document, range, renamed, diagnostic) : undefined;
    }
    if (diagnostic.code === 'json-syntax' || diagnostic.code === 'inner-json-syntax') {
      const closed = closeRow(text);
      return closed ? this.rowAction('Add the missing closing brace', document, range, closed, diagnostic) : undefined;
    }
    return undefined;
  }

  /** Whether the row repeats its first occurrence exactly (JSON Lines), so removing it loses nothing. */
  private exactDuplicate(document: vscode.TextDocument, format: 'jsonl' | 'json', diagnostic: vscode.Diagnostic): boolean {
    const first = diagnostic.relatedInformation?.[0]?.location.range.start.line;
    if (format !== 'jsonl' || first === undefined || first >= document.lineCount) return false;
    return document.lineAt(first).text.trim() === document.lineAt(diagnostic.range.start.line).text.trim();
  }
}
