// The editor's dataset validation in plain Node: the feature against the `vscode` stub, the dataset service beneath it,
// the real SDK against the emulator for s3:// URIs.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { AwsClients } from '../../../../src/aws/clients';
import { explainerFor } from '../../../../src/aws/errors';
import { startEmulator, type Emulator } from '../../../../src/emulator/server';
import { validateDatasetCommand } from '../../../../src/features/datasets/validateCommand';
import { DatasetValidation } from '../../../../src/features/datasets/validation';
import type { Services } from '../../../../src/features/services';
import { ceiling } from '../../../host/lib/ceiling';
import { jsonl, wordleRow } from '../../core/dataset/helpers';
import { harness } from '../../vscode/stub';

/** A job file whose `train` channel names `train.*` at global_batch_size 2. */
const jobFile = JSON.stringify({
  JobName: 'wordle',
  JobCategory: 'AgentRFT',
  Region: 'us-west-2',
  RoleArn: 'arn:aws:iam::1:role/r',
  JobConfigSchemaVersion: '1.0.0',
  JobConfigDocument: {
    InputDataConfig: [{ ChannelName: 'train', DataSource: { S3DataSource: { S3Uri: 's3://b/wordle/train.parquet' } } }],
    TrainingConfig: { HyperParameters: { global_batch_size: '2' } },
  },
});

const codes = (diagnostics: readonly vscode.Diagnostic[] | undefined) => (diagnostics ?? []).map((d) => String(d.code)).sort();

describe('datasets feature: validation on save and the Validate Dataset command (vscode stub, dataset service)', function () {
  this.timeout(ceiling(30_000));
  let dir: string;
  let logged: string[];
  let services: Services;
  let validation: DatasetValidation;

  beforeEach(() => {
    harness.reset();
    dir = mkdtempSync(path.join(tmpdir(), 'mtrl-feature-datasets-'));
    harness.folder = vscode.Uri.file(dir);
    writeFileSync(path.join(dir, 'train.jsonl'), jsonl(['crane', 'slate', 'riser'].map((w, i) => wordleRow(w, `t_${i}`))));
    writeFileSync(path.join(dir, 'val.jsonl'), jsonl([wordleRow('ocean', 't_1'), wordleRow('pasta', 'v_0')]));
    writeFileSync(path.join(dir, 'wordle.mtrl.json'), jobFile);
    logged = [];
    const output = { info: (line: string) => logged.push(line), error: (line: string) => logged.push(line), show: () => {} };
    services = { output } as unknown as Services;
    validation = new DatasetValidation(services);
  });

  afterEach(() => {
    validation.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('checks a saved validation file with its training partner: the overlap on both, the batch size from the job file that trains it', async () => {
    const train = vscode.Uri.file(path.join(dir, 'train.jsonl'));
    const val = vscode.Uri.file(path.join(dir, 'val.jsonl'));
    const state = await validation.validate(val);
    assert.deepEqual(logged, []);
    assert.deepEqual(codes(validation.collection.get(val)), ['train-val-overlap']);
    assert.deepEqual(codes(validation.collection.get(train)), ['small-dataset', 'train-val-overlap']);
    const small = validation.collection.get(train)!.find((d) => d.code === 'small-dataset')!;
    assert.match(small.message, /global_batch_size 2 from wordle\.mtrl\.json\)\.$/);
    assert.equal(state?.errors, 1, 'the overlap counts as the file’s error');
    assert.equal(validation.state(train)?.report.batchSize, 2);
  });

  it('without a job file the setting gives the batch size, and says so', async () => {
    rmSync(path.join(dir, 'wordle.mtrl.json'));
    harness.settings['mtrl.datasets.batchSize'] = 3;
    const train = vscode.Uri.file(path.join(dir, 'train.jsonl'));
    await validation.validate(train);
    const refused = validation.collection.get(train)!.find((d) => d.code === 'too-few-rows')!;
    assert.match(refused.message, /\(3 from the mtrl\.datasets\.batchSize setting\)\.$/);
  });

  it('Validate Dataset on a file shows the summary of the service’s report', async () => {
    const report = await validateDatasetCommand(services, validation, vscode.Uri.file(path.join(dir, 'val.jsonl')));
    assert.equal(report?.rows, 2);
    assert.deepEqual(harness.said, [{ kind: 'warning', text: 'val.jsonl: 2 rows (jsonl), 1 error, 0 warnings.' }]);
  });

  describe('on an s3:// URI (emulator, real SDK over HTTP)', () => {
    let emulator: Emulator;
    let aws: AwsClients;
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

    before(async () => {
      process.env.AWS_ACCESS_KEY_ID = 'test';
      process.env.AWS_SECRET_ACCESS_KEY = 'test';
      emulator = await startEmulator({ history: false });
      aws = new AwsClients(() => ({ region: 'us-east-1', endpoint: emulator.url }));
    });

    after(async () => {
      aws.reset();
      await emulator.close();
      for (const [name, value] of [
        ['AWS_ACCESS_KEY_ID', saved.id],
        ['AWS_SECRET_ACCESS_KEY', saved.secret],
      ] as const)
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
    });

    it('streams the object through the service and says what it found; a missing object is the explainer’s one sentence', async () => {
      const withAws = { ...services, aws, explain: explainerFor(() => aws.current) } as Services;
      const report = await validateDatasetCommand(withAws, validation, 's3://mtrl-demo/wordle/train.jsonl');
      assert.ok(report && report.rows > 0);
      assert.match(harness.said[0].text, /^s3:\/\/mtrl-demo\/wordle\/train\.jsonl: [\d,]+ rows \(jsonl\), /);
      assert.equal(await validateDatasetCommand(withAws, validation, 's3://mtrl-demo/nope.jsonl'), undefined);
      assert.deepEqual(
        harness.said.filter((s) => s.kind === 'error'),
        [{ kind: 'error', text: 'Reading s3://mtrl-demo/nope.jsonl failed: not found in us-east-1: The specified key does not exist.' }],
      );
    });
  });
});
