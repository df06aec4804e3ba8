import * as vscode from 'vscode';
import { formatFromName } from '../../core/dataset';
import { parentPrefix, parseS3Uri, type S3Location } from '../../core/s3/location';
import { folderEntries } from '../../services/datasets/objects';
import type { Services } from '../services';
import { BACK, CANCEL, inputStep, pickStep, subStep, type StepOutcome, type StepPosition } from './wizardInput';
import { S3_URI } from './wizardSteps';

/** A dataset URI from recent uploads, an S3 listing, or typed; `optional` adds "None". */
export async function datasetStep(
  services: Services,
  p: StepPosition,
  what: string,
  current: string | undefined,
  optional: boolean,
): Promise<StepOutcome<string>> {
  const recent = services.stores.recentUploads.list();
  type Item = vscode.QuickPickItem & { uri?: string; browse?: boolean; type?: boolean };
  const items: Item[] = [
    ...(current && !recent.includes(current) ? [{ label: current, description: 'last used', uri: current }] : []),
    ...recent.map((uri) => ({ label: uri, description: 'recent upload', uri })),
    { label: '$(folder-opened) Browse S3…', browse: true },
    { label: '$(edit) Enter an S3 URI…', type: true },
    ...(optional ? [{ label: '$(circle-slash) None', uri: '' }] : []),
  ];
  const r = await pickStep<Item>({ ...p, placeholder: what, items, active: (i) => i.uri === (current ?? '') });
  if (r === BACK || r === CANCEL) return r;
  if (r.uri !== undefined) return r.uri;
  if (r.type)
    return inputStep({
      ...subStep(p, 'S3 URI'),
      prompt: what,
      value: current,
      placeholder: 's3://bucket/wordle/train.jsonl',
      validate: (v) => (S3_URI.test(v) ? undefined : 'Expected s3://bucket/key.'),
    });
  // Nothing typed yet is not an error: start empty (a bare "s3://" was flagged red before the user typed anything).
  const start = current ?? recent[0];
  const where = await inputStep({
    ...subStep(p, 'browse S3'),
    prompt: 'Bucket and prefix to browse',
    value: start ? start.replace(/[^/]*$/, '') : '',
    placeholder: 's3://bucket/prefix/',
    validate: (v) => (parseS3Uri(v) ? undefined : 'Expected s3://bucket/prefix.'),
  });
  if (where === BACK || where === CANCEL) return where;
  return browseS3(services, p, parseS3Uri(where)!);
}

/** Folder by folder (Delimiter "/"): ".." goes up, a folder drills in, a dataset file is the answer; Back leaves the browser. */
async function browseS3(services: Services, p: StepPosition, start: S3Location): Promise<StepOutcome<string>> {
  type Item = vscode.QuickPickItem & { prefix?: string; uri?: string };
  const { bucket } = start;
  // A typed prefix without a trailing "/" starts in the folder that holds it.
  let prefix = start.key === '' || start.key.endsWith('/') ? start.key : parentPrefix(start.key);
  for (;;) {
    const here = `s3://${bucket}/${prefix}`;
    const picked = await pickStep<Item>({
      ...subStep(p, 'browse S3'),
      placeholder: `Folders and dataset files in ${here}`,
      items: async () => {
        const items: Item[] = prefix
          ? [{ label: '$(arrow-up) ..', description: parentPrefix(prefix) || bucket, prefix: parentPrefix(prefix) }]
          : [];
        let files = 0;
        for await (const entry of folderEntries(services.aws, bucket, prefix)) {
          if (entry.kind === 'folder') items.push({ label: `$(folder) ${entry.prefix.slice(prefix.length)}`, prefix: entry.prefix });
          else if (formatFromName(entry.key)) {
            files++;
            items.push({
              label: `$(file) ${entry.key.slice(prefix.length)}`,
              description: `${entry.size.toLocaleString('en-US')} bytes`,
              uri: `s3://${bucket}/${entry.key}`,
            });
          }
        }
        if (items.length === (prefix ? 1 : 0)) items.push({ label: `No folder and no .jsonl, .json, .csv or .parquet file in ${here}` });
        else if (files === 0) items.push({ label: 'No dataset file in this folder: open a folder', description: '' });
        return items;
      },
    });
    if (picked === BACK || picked === CANCEL) return picked;
    if (picked.uri) return picked.uri;
    if (picked.prefix !== undefined) prefix = picked.prefix;
  }
}
