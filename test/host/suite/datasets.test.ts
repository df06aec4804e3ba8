// Datasets in the real VS Code: diagnostics as a broken JSONL opens, the "wrap row" quick fix and its undo, train/val overlap, Parquet through the command (as pandas, polars and pyarrow write it), upload to the emulator's S3.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import { ceiling, diagnosticsFrom, runner, workspaceFile } from './workspace';

function datasetFile(...parts: string[]): vscode.Uri {
  return workspaceFile('datasets', ...parts);
}

/** Our diagnostics on a file as "line code" (0-based lines, as the API gives them). */
function ours(uri: vscode.Uri): string[] {
  return vscode.languages
    .getDiagnostics(uri)
    .filter((d) => d.source === 'MTRL')
    .map((d) => `${d.range.start.line} ${String(d.code)}`);
}

async function until(uri: vscode.Uri, accept: (found: string[]) => boolean, timeoutMs = 20_000): Promise<string[]> {
  const deadline = Date.now() + ceiling(timeoutMs);
  for (;;) {
    const found = ours(uri);
    if (accept(found)) return found;
    if (Date.now() > deadline) assert.fail(`diagnostics never matched; last: ${JSON.stringify(found)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('datasets', function () {
  this.timeout(ceiling(90_000));

  before(async () => {
    await vscode.extensions.getExtension('mtrl.mtrl-workbench')!.activate();
  });

  it('shows the flat row and the syntax error of a broken JSONL, at their lines', async () => {
    const uri = datasetFile('broken.jsonl');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const found = await until(uri, (f) => f.length === 2);
    assert.deepEqual(found, ['1 flat-row', '2 json-syntax']);
    const syntax = vscode.languages.getDiagnostics(uri).find((d) => d.code === 'json-syntax')!;
    assert.equal(syntax.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(syntax.range.start.character, 48);
  });

  it('"Wrap this row" fixes the flat row in one edit, and one undo brings it back', async () => {
    const uri = datasetFile('broken.jsonl');
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    await until(uri, (f) => f.includes('1 flat-row'));
    const flat = vscode.languages.getDiagnostics(uri).find((d) => d.code === 'flat-row')!;
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      uri,
      flat.range,
      vscode.CodeActionKind.QuickFix.value,
      10,
    );
    const wrap = actions.find((a) => a.title === 'Wrap this row for the service');
    assert.ok(wrap?.edit, `no wrap action among: ${actions.map((a) => a.title).join(', ')}`);
    const all = actions.find((a) => a.title === 'Wrap all flat rows for the service');
    assert.ok(all?.edit && all.edit.size === 1, 'the file-wide fix is missing or unresolved');
    assert.ok(await vscode.workspace.applyEdit(wrap.edit));
    assert.equal(
      editor.document.lineAt(1).text,
      '{"prompt": "{\\"prompt\\": \\"Guess the 5-letter word\\", \\"answer\\": \\"slate\\", \\"id\\": \\"w_0001\\"}"}',
    );
    assert.deepEqual(await until(uri, (f) => !f.includes('1 flat-row')), ['2 json-syntax']);
    await vscode.commands.executeCommand('undo');
    await until(uri, (f) => f.includes('1 flat-row'));
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('renames a misspelled key, adds a missing closing brace and serializes an object prompt, each as a quick fix on its row', async () => {
    const uri = datasetFile('typos.jsonl');
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const found = await until(
      uri,
      (f) => f.includes('0 missing-answer') && f.includes('1 json-syntax') && f.includes('2 prompt-not-string'),
    );
    assert.equal(found.length, 3, JSON.stringify(found));
    for (const [code, title] of [
      ['missing-answer', 'Rename "answr" to "answer"'],
      ['json-syntax', 'Add the missing closing brace'],
      ['prompt-not-string', 'Serialize this prompt as a JSON string'],
    ]) {
      const diagnostic = vscode.languages.getDiagnostics(uri).find((d) => d.code === code)!;
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        uri,
        diagnostic.range,
        vscode.CodeActionKind.QuickFix.value,
        10,
      );
      const fix = actions.find((a) => a.title === title);
      assert.ok(fix?.edit, `no "${title}" among: ${actions.map((a) => a.title).join(', ')}`);
      assert.ok(await vscode.workspace.applyEdit(fix.edit));
    }
    assert.match(editor.document.lineAt(0).text, /\\"answer\\": \\"riser\\"/);
    assert.equal(
      editor.document.lineAt(2).text,
      '{"prompt": "{\\"prompt\\": \\"Guess the 5-letter word\\", \\"answer\\": \\"flame\\", \\"id\\": \\"typo_0002\\"}"}',
    );
    assert.deepEqual(await until(uri, (f) => f.length === 0), []);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('leaves an IAM trust policy named like a training file to the role lint', async () => {
    // Its own copy: the lint suite's policy must first be opened by the lint suite.
    const policy = datasetFile('training-trust-policy.json');
    const broken = datasetFile('broken.jsonl');
    await vscode.workspace.openTextDocument(policy);
    await vscode.workspace.openTextDocument(broken);
    // Once a later-opened dataset has its diagnostics, the policy has had its chance to get some.
    await until(broken, (f) => f.length > 0);
    await new Promise((r) => setTimeout(r, 1_000));
    assert.deepEqual(ours(policy), []);
    await diagnosticsFrom(
      policy,
      (source) => source === 'MTRL (role lint)',
      (d) => d.some((x) => x.code === 'trusts-sagemaker'),
    );
  });

  it('reports a word in both train.jsonl and val.jsonl on both files', async () => {
    const train = datasetFile('pair', 'train.jsonl');
    const val = datasetFile('pair', 'val.jsonl');
    await vscode.workspace.openTextDocument(val);
    assert.deepEqual(await until(val, (f) => f.some((x) => x.endsWith('train-val-overlap'))), ['1 train-val-overlap']);
    assert.deepEqual((await until(train, (f) => f.some((x) => x.endsWith('train-val-overlap')))).sort(), [
      '0 too-few-rows',
      '1 train-val-overlap',
    ]);
    const related = vscode.languages.getDiagnostics(val).find((d) => d.code === 'train-val-overlap')!.relatedInformation![0];
    assert.equal(related.location.uri.fsPath, train.fsPath);
  });

  it('follows a closed file on disk: changed, it is checked again; deleted, its diagnostics go', async () => {
    // In the copy's own datasets folder, which the harness made sure VS Code watches (test/host/runner/watchedCopy.ts).
    const uri = datasetFile('closed-words.jsonl');
    const row = (answer: string, id: string) =>
      JSON.stringify({ prompt: JSON.stringify({ prompt: 'Guess the 5-letter word', answer, id }) });
    const write = (text: string) => vscode.workspace.fs.writeFile(uri, Buffer.from(text));
    await write(`${row('crane', 'a')}\n{"prompt": \n`);
    await vscode.commands.executeCommand('mtrl.validateDataset', uri);
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString()), 'the file must stay closed');
    assert.deepEqual(ours(uri), ['1 json-syntax']);
    await write(`${row('crane', 'a')}\n${row('slate', 'b')}\n`);
    assert.deepEqual(await until(uri, (f) => f.length === 0), []);
    await write(`${row('crane', 'a')}\n${row('crane', 'a')}\n`);
    assert.deepEqual((await until(uri, (f) => f.length > 0)).sort(), ['1 duplicate-answer', '1 duplicate-id']);
    await vscode.workspace.fs.delete(uri);
    assert.deepEqual(await until(uri, (f) => f.length === 0), []);
  });

  it('validates a Parquet file through the command, with diagnostics on its URI', async () => {
    const uri = datasetFile('bad-answers.parquet');
    const report = await vscode.commands.executeCommand<{ rows: number; format: string }>('mtrl.validateDataset', uri);
    assert.equal(report?.rows, 3);
    assert.equal(report?.format, 'parquet');
    assert.deepEqual(ours(uri), ['1 bad-answer', '2 bad-answer']);
  });

  it('reads Parquet as pandas, polars and pyarrow write it (gzip, brotli, lz4, zstd), and again when a tool rewrites a file', async () => {
    const writers = path.join(runner().config!.repository, 'test/fixtures/datasets/writers');
    const copy = async (name: string, to: vscode.Uri) => vscode.workspace.fs.writeFile(to, await readFile(path.join(writers, name)));
    // polars' default is zstd; the packaged extension must carry each codec's decompressor.
    for (const name of ['polars-default', 'pandas-gzip', 'pandas-brotli', 'pyarrow-lz4-v2-plain-large', 'pyarrow-zstd-v1-dict']) {
      const uri = datasetFile(`${name}.parquet`);
      await copy(`${name}.parquet`, uri);
      const report = await vscode.commands.executeCommand<{ rows: number; findings: unknown[] }>('mtrl.validateDataset', uri);
      assert.deepEqual([name, report?.rows, report?.findings], [name, 300, []]);
    }
    // A file with findings, then rewritten on disk by polars (zstd): its diagnostics follow the disk.
    const rewritten = datasetFile('rewritten.parquet');
    await vscode.workspace.fs.copy(datasetFile('bad-answers.parquet'), rewritten);
    await vscode.commands.executeCommand('mtrl.validateDataset', rewritten);
    assert.deepEqual(ours(rewritten), ['1 bad-answer', '2 bad-answer']);
    await copy('polars-default.parquet', rewritten);
    assert.deepEqual(await until(rewritten, (f) => f.length === 0), []);
  });

  it('uploads a clean dataset to the emulator S3, verified, then validates it from there', async () => {
    assert.ok(runner().config?.emulatorUrl, 'the driver started no emulator: this test needs `mtrl emulator`');
    const target = `s3://mtrl-demo/host-test/${Date.now()}/val.jsonl`;
    const uploaded = await vscode.commands.executeCommand<string>('mtrl.uploadDataset', datasetFile('upload', 'words.jsonl'), { target });
    assert.equal(uploaded, target);
    const report = await vscode.commands.executeCommand<{ rows: number; findings: unknown[] }>('mtrl.validateDataset', target);
    assert.equal(report?.rows, 3);
    assert.deepEqual(report?.findings, []);
  });

  it('uploads a file larger than one part in several parts, and the object has its size', async () => {
    assert.ok(runner().config?.emulatorUrl, 'the driver started no emulator: this test needs `mtrl emulator`');
    const row = (i: number) =>
      JSON.stringify({ prompt: JSON.stringify({ prompt: 'Guess the 5-letter word', answer: 'crane', id: `big_${i}` }) });
    // Rows repeat the answer on purpose (a warning, not an error): only the size matters here.
    const text = Array.from({ length: 100_000 }, (_, i) => row(i)).join('\n') + '\n';
    assert.ok(text.length > 8 * 1024 * 1024);
    const file = datasetFile('upload', 'big-words.jsonl');
    await vscode.workspace.fs.writeFile(file, Buffer.from(text));
    const target = `s3://mtrl-demo/host-test/${Date.now()}/big-words.jsonl`;
    assert.equal(await vscode.commands.executeCommand<string>('mtrl.uploadDataset', file, { target }), target);
    const report = await vscode.commands.executeCommand<{ rows: number }>('mtrl.validateDataset', target);
    assert.equal(report?.rows, 100_000);
  });
});
