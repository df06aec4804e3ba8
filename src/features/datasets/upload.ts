import { stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import { formatFromName } from '../../core/dataset';
import { parseS3Uri, s3Uri } from '../../core/s3/location';
import { checkUploaded, existingObject, uploadFile } from '../../services/datasets/objects';
import type { Services } from '../services';
import { DATASET_FILTERS } from './validateCommand';
import type { DatasetValidation } from './validation';

async function chooseFile(arg: unknown): Promise<vscode.Uri | undefined> {
  if (arg instanceof vscode.Uri) return arg;
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active?.scheme === 'file' && formatFromName(active.path)) return active;
  return (await vscode.window.showOpenDialog({ canSelectMany: false, filters: DATASET_FILTERS, title: 'Upload Dataset to S3' }))?.[0];
}

async function confirmOverwrite(question: string): Promise<boolean> {
  return (await vscode.window.showWarningMessage(question, { modal: true }, 'Overwrite')) === 'Overwrite';
}

/** For scripts and tests: the target URI instead of the input box. */
export interface UploadRequest {
  target?: string;
}

/**
 * `MTRL: Upload Dataset to S3`: validate, pick the key, confirm an overwrite, upload with progress and cancel, verify, copy and remember the URI.
 * Returns the S3 URI once uploaded and verified.
 */
export async function uploadDatasetCommand(
  services: Services,
  validation: DatasetValidation,
  arg?: unknown,
  request: UploadRequest = {},
): Promise<string | undefined> {
  const file = await chooseFile(arg);
  if (!file) return undefined;
  const name = vscode.workspace.asRelativePath(file);
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === file.toString());
  if (open?.isDirty && !(await open.save())) return undefined;

  const state = await validation.validate(file);
  if (state?.errors) {
    const go = await vscode.window.showWarningMessage(
      `${name} has ${state.errors} dataset error${state.errors === 1 ? '' : 's'} (see Problems). The service would train on the rows as they are.`,
      { modal: true },
      'Upload Anyway',
    );
    if (go !== 'Upload Anyway') return undefined;
  }

  const uploads = services.stores.recentUploads;
  const prefix = uploads.lastPrefix() ?? uploads.list()[0]?.replace(/[^/]*$/, '') ?? 's3://';
  const base = file.path.slice(file.path.lastIndexOf('/') + 1);
  const typed =
    request.target ??
    (await vscode.window.showInputBox({
      title: 'MTRL: Upload Dataset to S3',
      prompt: `Where to put ${base}`,
      value: `${prefix}${base}`,
      valueSelection: [prefix.length, prefix.length + base.length],
      validateInput: (v) => {
        const l = parseS3Uri(v);
        return !l || !l.key || l.key.endsWith('/') ? 'Type an s3://bucket/key URI ending in the object name.' : undefined;
      },
    }));
  const target = typed ? parseS3Uri(typed) : undefined;
  if (!target?.key) {
    if (typed) void vscode.window.showErrorMessage(`${typed} is not an s3://bucket/key URI.`);
    return undefined;
  }
  const uri = s3Uri(target);

  // The check is for the prompt; the write itself is conditional, so an object written meanwhile is never overwritten unasked.
  let createOnly = true;
  try {
    const existing = await existingObject(services.aws, target);
    if (existing) {
      const modified = existing.lastModified ? `, modified ${existing.lastModified.toISOString()}` : '';
      if (!(await confirmOverwrite(`${uri} already exists (${existing.size.toLocaleString('en')} bytes${modified}). Overwrite it?`)))
        return undefined;
      createOnly = false;
    }
  } catch (error) {
    void vscode.window.showErrorMessage(services.explain(error, `Checking ${uri}`));
    return undefined;
  }

  const size = (await stat(file.fsPath)).size;
  const done = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Uploading ${base} to ${uri}`, cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      token.onCancellationRequested(() => controller.abort());
      let reported = 0;
      const send = (conditional: boolean) =>
        uploadFile(services.aws, target, file.fsPath, {
          signal: controller.signal,
          createOnly: conditional,
          onProgress: (loaded) => {
            const percent = size ? (100 * loaded) / size : 100;
            progress.report({
              increment: percent - reported,
              message: `${(loaded / 1048576).toFixed(1)} of ${(size / 1048576).toFixed(1)} MB`,
            });
            reported = percent;
          },
        });
      try {
        if ((await send(createOnly)) === 'exists') {
          // S3 refused: the key was created after the check. The same question as before, then a plain write.
          if (!(await confirmOverwrite(`${uri} was created by someone else while ${base} was uploading. Overwrite it?`))) return false;
          reported = 0;
          await send(false);
        }
        return true;
      } catch (error) {
        if (controller.signal.aborted)
          void vscode.window.showInformationMessage(`Upload of ${base} cancelled; no object was written to ${uri}.`);
        else void vscode.window.showErrorMessage(services.explain(error, `Uploading to ${uri}`));
        return false;
      }
    },
  );
  if (!done) return undefined;

  try {
    const held = await checkUploaded(services.aws, target, file.fsPath, size);
    if (held.heldBytes !== size) {
      void vscode.window.showErrorMessage(`${uri} holds ${held.heldBytes} bytes but ${base} has ${size}: upload it again.`);
      return undefined;
    }
    const { etag, expectedEtag } = held;
    // SSE-KMS objects carry an ETag that is not an MD5, so a mismatch is a warning, not a failed upload.
    if (etag && etag !== expectedEtag) {
      const text = `${uri} has the right size, but its ETag ${etag} is not the local file's ${expectedEtag}. That is expected with SSE-KMS encryption; otherwise upload it again.`;
      services.output.warn(text);
      void vscode.window.showWarningMessage(text);
    }
  } catch (error) {
    void vscode.window.showErrorMessage(services.explain(error, `Checking ${uri} after the upload`));
    return undefined;
  }

  // A browser VS Code may refuse the clipboard without focus: the upload still succeeded.
  const copied = await Promise.resolve(vscode.env.clipboard.writeText(uri)).then(
    () => true,
    () => false,
  );
  await uploads.remember(uri);
  services.output.info(`Uploaded ${file.fsPath} to ${uri} (${size} bytes, verified).`);
  void vscode.window.showInformationMessage(
    `Uploaded ${base} to ${uri} (${(size / 1048576).toFixed(1)} MB, verified).${copied ? ' The URI is copied.' : ''}`,
  );
  return uri;
}
