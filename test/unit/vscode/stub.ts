// A small `vscode` for feature tests in plain Node: commands, messages and quick picks as data, documents by URI,
// events, the value types. What a test answers (a quick pick, a dialog) it scripts in `answers`; what the feature said
// is read from `said`. Only what the features use is here; a missing piece fails loudly when a test reaches it.
import { readdirSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

type Listener<T> = (value: T) => unknown;

export class Disposable {
  constructor(private readonly done: () => void = () => {}) {}
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((i) => i.dispose()));
  }
  dispose(): void {
    this.done();
  }
}

export class EventEmitter<T> {
  private listeners = new Set<Listener<T>>();
  readonly event = (listener: Listener<T>): Disposable => {
    this.listeners.add(listener);
    return new Disposable(() => this.listeners.delete(listener));
  };
  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

interface UriParts {
  scheme: string;
  authority?: string;
  path?: string;
  query?: string;
  fragment?: string;
}

export class Uri {
  readonly scheme: string;
  readonly authority: string;
  readonly path: string;
  readonly query: string;
  readonly fragment: string;
  private constructor(parts: UriParts) {
    this.scheme = parts.scheme;
    this.authority = parts.authority ?? '';
    this.path = parts.path ?? '';
    this.query = parts.query ?? '';
    this.fragment = parts.fragment ?? '';
  }
  static from(parts: UriParts): Uri {
    return new Uri(parts);
  }
  static file(fsPath: string): Uri {
    return new Uri({ scheme: 'file', path: path.resolve(fsPath) });
  }
  static parse(text: string): Uri {
    const url = new URL(text);
    return new Uri({
      scheme: url.protocol.replace(/:$/, ''),
      authority: url.host,
      path: decodeURIComponent(url.pathname),
      query: url.search.replace(/^\?/, ''),
      fragment: url.hash.replace(/^#/, ''),
    });
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return base.with({ path: path.posix.join(base.path, ...parts) });
  }
  get fsPath(): string {
    return this.path;
  }
  with(change: Partial<UriParts>): Uri {
    return new Uri({ ...this, ...change });
  }
  toString(): string {
    const authority = this.authority || this.scheme === 'file' ? `//${this.authority}` : '';
    return `${this.scheme}:${authority}${this.path}${this.query ? `?${this.query}` : ''}${this.fragment ? `#${this.fragment}` : ''}`;
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
  isEqual(other: Position): boolean {
    return this.line === other.line && this.character === other.character;
  }
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(a: Position | number, b: Position | number, c?: number, d?: number) {
    this.start = typeof a === 'number' ? new Position(a, b as number) : a;
    this.end = typeof a === 'number' ? new Position(c!, d!) : (b as Position);
  }
}

export class ThemeIcon {
  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export class MarkdownString {
  constructor(public value = '') {}
  appendMarkdown(text: string): this {
    this.value += text;
    return this;
  }
  appendText(text: string): this {
    this.value += text;
    return this;
  }
}

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export class TreeItem {
  id?: string;
  description?: string;
  tooltip?: string | MarkdownString;
  iconPath?: ThemeIcon;
  contextValue?: string;
  command?: { command: string; title: string; arguments?: unknown[] };
  constructor(
    public label: string,
    public collapsibleState = TreeItemCollapsibleState.None,
  ) {}
}

export class CodeLens {
  constructor(
    readonly range: Range,
    public command?: { command: string; title: string; arguments?: unknown[] },
  ) {}
}

export enum DiagnosticSeverity {
  Error = 0,
  Warning = 1,
  Information = 2,
  Hint = 3,
}

export class Diagnostic {
  code?: string | number;
  source?: string;
  constructor(
    readonly range: Range,
    readonly message: string,
    readonly severity = DiagnosticSeverity.Error,
  ) {}
}

export class Location {
  constructor(
    readonly uri: Uri,
    readonly range: Range,
  ) {}
}

export class DiagnosticRelatedInformation {
  constructor(
    readonly location: Location,
    readonly message: string,
  ) {}
}

/** Diagnostics by URI, as the Problems view would list them. */
class DiagnosticCollection {
  private readonly byUri = new Map<string, { uri: Uri; diagnostics: Diagnostic[] }>();
  set(uri: Uri, diagnostics: Diagnostic[]): void {
    this.byUri.set(uri.toString(), { uri, diagnostics });
  }
  get(uri: Uri): Diagnostic[] | undefined {
    return this.byUri.get(uri.toString())?.diagnostics;
  }
  has(uri: Uri): boolean {
    return this.byUri.has(uri.toString());
  }
  delete(uri: Uri): void {
    this.byUri.delete(uri.toString());
  }
  clear(): void {
    this.byUri.clear();
  }
  forEach(visit: (uri: Uri, diagnostics: Diagnostic[]) => void): void {
    for (const { uri, diagnostics } of this.byUri.values()) visit(uri, diagnostics);
  }
  dispose(): void {
    this.clear();
  }
}

export const languages = {
  createDiagnosticCollection: () => new DiagnosticCollection(),
};

export enum FileType {
  Unknown = 0,
  File = 1,
  Directory = 2,
}

export enum ProgressLocation {
  SourceControl = 1,
  Window = 10,
  Notification = 15,
}

export enum QuickPickItemKind {
  Separator = -1,
  Default = 0,
}

/** An open document: its URI and text, as `workspace.openTextDocument` gives it. */
export interface StubDocument {
  uri: Uri;
  getText(): string;
  readonly lineCount: number;
  refresh(): Promise<void>;
}

type Answer = string | number | undefined | ((items: readonly unknown[]) => unknown);

/** What the features said (messages, the status bar) and what the test answers next (dialogs, picks, input boxes), in order. */
export const harness = {
  said: [] as { kind: 'info' | 'warning' | 'error' | 'status'; text: string; modal?: boolean }[],
  answers: [] as Answer[],
  providers: new Map<string, { provideTextDocumentContent(uri: Uri): string | Promise<string>; onDidChange?: unknown }>(),
  documents: [] as StubDocument[],
  /** The open folder (files on disk), for `workspace.fs`, `findFiles` and relative paths. */
  folder: undefined as Uri | undefined,
  /** Settings by `section.key` (`mtrl.datasets.batchSize`); unset ones read as their default. */
  settings: {} as Record<string, unknown>,
  /** Reads of open documents a provider's change started; `settled()` waits for them. */
  refreshing: [] as Promise<void>[],
  async settled(): Promise<void> {
    while (this.refreshing.length) await this.refreshing.shift();
  },
  reset(): void {
    this.said = [];
    this.answers = [];
    this.refreshing = [];
    this.documents.length = 0;
    this.folder = undefined;
    this.settings = {};
    registered.clear();
    this.providers.clear();
  },
};

function next(items: readonly unknown[] = []): unknown {
  if (!harness.answers.length) return undefined;
  const answer = harness.answers.shift();
  return typeof answer === 'function' ? answer(items) : answer;
}

function message(kind: 'info' | 'warning' | 'error') {
  return async (text: string, ...rest: unknown[]) => {
    const options = typeof rest[0] === 'object' && rest[0] !== null && !('title' in rest[0]) ? (rest[0] as { modal?: boolean }) : {};
    harness.said.push({ kind, text, ...(options.modal && { modal: true }) });
    const buttons = rest.filter((r) => typeof r === 'string');
    // A message with buttons waits for the scripted answer; one without resolves at once, as VS Code's does once shown.
    return buttons.length ? next(buttons) : undefined;
  };
}

const registered = new Map<string, (...args: unknown[]) => unknown>();

export const commands = {
  registerCommand(id: string, run: (...args: unknown[]) => unknown): Disposable {
    if (registered.has(id)) throw new Error(`command '${id}' already exists`);
    registered.set(id, run);
    return new Disposable(() => registered.delete(id));
  },
  async executeCommand<T>(id: string, ...args: unknown[]): Promise<T> {
    const run = registered.get(id);
    if (run) return (await run(...args)) as T;
    if (id === 'setContext') return undefined as T;
    throw new Error(`command '${id}' not found`);
  },
};

/** The text a provider gives for `uri`, read each time VS Code would (on open, and when the provider says it changed). */
async function provided(uri: Uri): Promise<string> {
  const provider = harness.providers.get(uri.scheme);
  if (!provider) throw new Error(`no content provider for ${uri.toString()}`);
  return provider.provideTextDocumentContent(uri);
}

async function openTextDocument(uri: Uri): Promise<StubDocument> {
  const open = harness.documents.find((d) => d.uri.toString() === uri.toString());
  if (open) return open;
  let text = await provided(uri);
  const document: StubDocument = {
    uri,
    getText: () => text,
    get lineCount() {
      return text.split('\n').length;
    },
    refresh: async () => void (text = await provided(uri)),
  };
  harness.documents.push(document);
  return document;
}

const opened = new EventEmitter<StubDocument>();
const closed = new EventEmitter<StubDocument>();
const saved = new EventEmitter<StubDocument>();
const changed = new EventEmitter<{ document: StubDocument }>();

export const workspace = {
  get textDocuments(): readonly StubDocument[] {
    return harness.documents;
  },
  openTextDocument,
  registerTextDocumentContentProvider(
    scheme: string,
    provider: { provideTextDocumentContent(uri: Uri): string | Promise<string>; onDidChange?: (listener: Listener<Uri>) => Disposable },
  ) {
    harness.providers.set(scheme, provider);
    // As VS Code does: a change the provider fires reads an open document's text again.
    const refresh = provider.onDidChange?.((uri) => {
      const open = harness.documents.find((d) => d.uri.toString() === uri.toString());
      if (open) harness.refreshing.push(open.refresh());
    });
    return new Disposable(() => (harness.providers.delete(scheme), refresh?.dispose()));
  },
  get workspaceFolders() {
    return harness.folder && [{ uri: harness.folder, name: path.basename(harness.folder.path), index: 0 }];
  },
  getWorkspaceFolder(uri: Uri) {
    return workspace.workspaceFolders?.find((f) => uri.path.startsWith(`${f.uri.path}/`));
  },
  asRelativePath(uri: Uri): string {
    return harness.folder && uri.path.startsWith(`${harness.folder.path}/`) ? path.posix.relative(harness.folder.path, uri.path) : uri.path;
  },
  getConfiguration(section: string) {
    return { get: <T>(key: string, fallback?: T) => (harness.settings[`${section}.${key}`] as T | undefined) ?? fallback };
  },
  /** Files of the open folder whose names end in the suffix of a `**`-then-`*<suffix>` glob; other globs are not stubbed. */
  async findFiles(include: string, _exclude?: string, max = Infinity): Promise<Uri[]> {
    const suffix = /^\*\*\/\*([^*{}[\]]+)$/.exec(include)?.[1];
    if (!suffix) throw new Error(`the stub's findFiles takes **/*<suffix>, not ${include}`);
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const full = path.join(dir, name);
        return name === 'node_modules' ? [] : statSync(full).isDirectory() ? walk(full) : name.endsWith(suffix) ? [full] : [];
      });
    return (harness.folder ? walk(harness.folder.fsPath) : []).slice(0, max).map((file) => Uri.file(file));
  },
  fs: {
    readFile: async (uri: Uri) => new Uint8Array(await readFile(uri.fsPath)),
    readDirectory: async (uri: Uri): Promise<[string, FileType][]> =>
      (await readdir(uri.fsPath, { withFileTypes: true })).map((e) => [e.name, e.isDirectory() ? FileType.Directory : FileType.File]),
  },
  onDidOpenTextDocument: opened.event,
  onDidCloseTextDocument: closed.event,
  onDidSaveTextDocument: saved.event,
  onDidChangeTextDocument: changed.event,
};

export const window = {
  showInformationMessage: message('info'),
  showWarningMessage: message('warning'),
  showErrorMessage: message('error'),
  async showQuickPick(items: readonly unknown[] | Promise<readonly unknown[]>) {
    return next(await items);
  },
  async showInputBox() {
    return next();
  },
  /** Runs the task at once; the test cancels nothing. */
  async withProgress<T>(_options: unknown, task: (progress: { report(value: unknown): void }, token: unknown) => Promise<T>): Promise<T> {
    const token = { isCancellationRequested: false, onCancellationRequested: () => new Disposable() };
    return task({ report: () => {} }, token);
  },
  setStatusBarMessage(text: string) {
    harness.said.push({ kind: 'status', text });
    return new Disposable();
  },
  async showTextDocument(document: StubDocument) {
    return { document };
  },
  activeTextEditor: undefined as { document: StubDocument } | undefined,
};

export const env = {
  clipboard: { text: '', writeText: async (text: string) => void (env.clipboard.text = text) },
  opened: [] as string[],
  openExternal: async (uri: Uri) => (env.opened.push(uri.toString()), true),
};

/** The VS Code version the features see: the one the host harness runs. */
export const version = '1.139.1';
