import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { escapeQueryPart, mlflowRoute, signMlflowCall } from '../../../../src/aws/mlflow/signing';
import { parseMlflowArn } from '../../../../src/core/metrics/mlflow';

const hex = (data: string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** SigV4 written out from the specification, step by step, independent of the signer under test. */
function referenceSignature(input: {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: string;
  date: string;
  region: string;
  service: string;
  secret: string;
}): { signedHeaders: string; signature: string } {
  const names = Object.keys(input.headers)
    .map((h) => h.toLowerCase())
    .sort();
  const lower = Object.fromEntries(Object.entries(input.headers).map(([k, v]) => [k.toLowerCase(), v.trim()]));
  const canonicalHeaders = names.map((n) => `${n}:${lower[n]}\n`).join('');
  const signedHeaders = names.join(';');
  const canonical = [input.method, input.path, input.query, canonicalHeaders, signedHeaders, hex(input.body)].join('\n');
  const day = input.date.slice(0, 8);
  const scope = `${day}/${input.region}/${input.service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', input.date, scope, hex(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${input.secret}`, day), input.region), input.service), 'aws4_request');
  return { signedHeaders, signature: createHmac('sha256', key).update(toSign).digest('hex') };
}

const credentials = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  sessionToken: 'session-token-example',
};
const date = new Date(Date.UTC(2015, 7, 30, 12, 36, 0));

describe('MLflow SigV4 signing', () => {
  it('the reference reproduces the published get-vanilla vector of the SigV4 test suite', () => {
    const { signature } = referenceSignature({
      method: 'GET',
      path: '/',
      query: '',
      headers: { Host: 'example.amazonaws.com', 'X-Amz-Date': '20150830T123600Z' },
      body: '',
      date: '20150830T123600Z',
      region: 'us-east-1',
      service: 'service',
      secret: credentials.secretAccessKey,
    });
    assert.equal(signature, '5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31');
  });

  it('signs an app GET with the routing header, the content hash and the session token, query spaces as %20', async () => {
    const resource = parseMlflowArn('arn:aws:sagemaker:us-east-1:111122223333:mlflow-app/app-ABC123')!;
    const route = mlflowRoute(resource);
    assert.equal(route.baseUrl, 'https://mlflow.sagemaker.us-east-1.app.aws');
    const signed = await signMlflowCall(
      { method: 'GET', path: '/api/2.0/mlflow/experiments/get-by-name', query: { experiment_name: 'wordle lr+sweep' } },
      resource,
      route,
      async () => credentials,
      date,
    );
    assert.equal(
      signed.url,
      'https://mlflow.sagemaker.us-east-1.app.aws/api/2.0/mlflow/experiments/get-by-name?experiment_name=wordle%20lr%2Bsweep',
    );
    const headers = {
      host: 'mlflow.sagemaker.us-east-1.app.aws',
      'x-sm-mlflow-app-arn': resource.arn,
      'x-amz-content-sha256': hex(''),
      'x-amz-date': '20150830T123600Z',
      'x-amz-security-token': credentials.sessionToken,
    };
    const expected = referenceSignature({
      method: 'GET',
      path: '/api/2.0/mlflow/experiments/get-by-name',
      query: 'experiment_name=wordle%20lr%2Bsweep',
      headers,
      body: '',
      date: '20150830T123600Z',
      region: 'us-east-1',
      service: 'sagemaker',
      secret: credentials.secretAccessKey,
    });
    assert.equal(
      signed.headers.authorization,
      `AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/sagemaker/aws4_request, SignedHeaders=${expected.signedHeaders}, Signature=${expected.signature}`,
    );
    assert.ok(!expected.signedHeaders.includes('connection'));
  });

  it('signs a tracking-server POST with its own service name, header and body hash', async () => {
    const resource = parseMlflowArn('arn:aws:sagemaker:us-west-2:111122223333:mlflow-tracking-server/my-server')!;
    const route = mlflowRoute(resource);
    assert.deepEqual(
      [route.baseUrl, route.service, route.arnHeader],
      ['https://us-west-2.experiments.sagemaker.aws', 'sagemaker-mlflow', 'x-mlflow-sm-tracking-server-arn'],
    );
    const body = JSON.stringify({ experiment_ids: ['7'], filter: "tags.mlflow.runName = 'job'" });
    const signed = await signMlflowCall(
      { method: 'POST', path: '/api/2.0/mlflow/runs/search', body },
      resource,
      route,
      async () => ({ accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey }),
      date,
    );
    const headers = {
      host: 'us-west-2.experiments.sagemaker.aws',
      'x-mlflow-sm-tracking-server-arn': resource.arn,
      'x-amz-content-sha256': hex(body),
      'content-type': 'application/json',
      'x-amz-date': '20150830T123600Z',
    };
    const expected = referenceSignature({
      method: 'POST',
      path: '/api/2.0/mlflow/runs/search',
      query: '',
      headers,
      body,
      date: '20150830T123600Z',
      region: 'us-west-2',
      service: 'sagemaker-mlflow',
      secret: credentials.secretAccessKey,
    });
    assert.match(signed.headers.authorization, new RegExp(`Signature=${expected.signature}$`));
    assert.equal(signed.body, body);
  });

  it('sends every call to mtrl.aws.endpoint when it is set, keeping the path', async () => {
    const resource = parseMlflowArn('arn:aws:sagemaker:us-east-1:111122223333:mlflow-app/app-ABC123')!;
    const signed = await signMlflowCall(
      { method: 'GET', path: '/api/2.0/mlflow/runs/get', query: { run_id: 'r1' } },
      resource,
      mlflowRoute(resource, 'http://127.0.0.1:4566/'),
      async () => credentials,
      date,
    );
    assert.equal(signed.url, 'http://127.0.0.1:4566/api/2.0/mlflow/runs/get?run_id=r1');
    assert.equal(signed.headers.host, '127.0.0.1:4566');
  });

  it('escapes query parts as SigV4 canonicalises them', () => {
    assert.equal(escapeQueryPart("rollout/reward/mean (x)!*'"), 'rollout%2Freward%2Fmean%20%28x%29%21%2A%27');
  });
});
