import assert from 'node:assert/strict';
import { describeAwsError, explainerFor } from '../../../src/aws/errors';
import { PaginationError } from '../../../src/aws/paginate';
import { SlowAnswer } from '../../../src/aws/responseBody';
import { MlflowError } from '../../../src/aws/mlflow/answers';
import { describeMlflowError } from '../../../src/aws/mlflow/errors';

function awsError(name: string, message: string, status?: number, attempts?: number): Error {
  return Object.assign(new Error(message), { name, $metadata: { httpStatusCode: status, attempts } });
}

describe('describeAwsError', () => {
  it('names the profile and both files when no credentials are found', () => {
    const text = describeAwsError(
      Object.assign(new Error('Could not load credentials from any providers'), { name: 'CredentialsProviderError' }),
      { profile: 'ml' },
    );
    assert.match(text, /no AWS credentials found for profile 'ml'/);
    assert.match(text, /~\/\.aws\/credentials/);
    assert.match(text, /~\/\.aws\/config/);
  });

  it('tells the user to run aws sso login for an expired SSO session', () => {
    const text = describeAwsError(
      Object.assign(
        new Error(
          'The SSO session associated with this profile has expired. To refresh this SSO session run aws sso login with the corresponding profile.',
        ),
        { name: 'CredentialsProviderError' },
      ),
      { profile: 'ml' },
    );
    assert.match(text, /aws sso login --profile ml/);
  });

  it('a job not found says the region it was looked for in (the usual cause: another region)', () => {
    const gone = awsError('ResourceNotFound', 'Job wordle-x does not exist.', 404);
    assert.equal(
      describeAwsError(gone, { action: 'Resuming wordle-x', region: 'eu-west-1' }),
      'Resuming wordle-x failed: not found in eu-west-1: Job wordle-x does not exist.',
    );
    assert.equal(describeAwsError(gone), 'not found: Job wordle-x does not exist.');
  });

  it('turns ExpiredTokenException into a refresh sentence', () => {
    const text = describeAwsError(awsError('ExpiredTokenException', 'The security token included in the request is expired', 400), {
      profile: 'dev',
    });
    assert.match(text, /credentials of profile 'dev' have expired/);
    assert.match(text, /aws sso login --profile dev/);
  });

  it('explains AccessDenied on the Jobs API', () => {
    const text = describeAwsError(awsError('AccessDeniedException', 'User is not authorized to perform: sagemaker:ListJobs', 400), {
      action: 'List jobs',
    });
    assert.match(text, /^List jobs failed: /);
    assert.match(text, /not enabled for MTRL, or the identity is missing AmazonSageMakerJobFullAccess/);
  });

  it('says throttling persisted after the retries', () => {
    assert.match(
      describeAwsError(awsError('ThrottlingException', 'Rate exceeded', 400, 4)),
      /throttling requests \(still throttled after 4 attempts\)/,
    );
  });

  it('names the endpoint when the network is down', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4566'), { code: 'ECONNREFUSED' });
    const text = describeAwsError(refused, { endpoint: 'http://127.0.0.1:4566' });
    assert.match(text, /cannot reach http:\/\/127\.0\.0\.1:4566 \(ECONNREFUSED\)/);
    assert.match(
      describeAwsError(Object.assign(new Error('getaddrinfo ENOTFOUND api.sagemaker.us-east-1.amazonaws.com'), { code: 'ENOTFOUND' }), {
        region: 'us-east-1',
      }),
      /cannot reach AWS in us-east-1 \(ENOTFOUND\)/,
    );
  });

  it('keeps the service message of validation errors verbatim', () => {
    const message = "EvaluationConfig.HyperParameters has unknown field 'top_p'; accepted: temperature, sampling_top_p";
    assert.equal(describeAwsError(awsError('ValidationException', message, 400)), message);
  });

  it('says a cancelled request was cancelled', () => {
    assert.equal(
      describeAwsError(Object.assign(new Error('Request aborted'), { name: 'AbortError' }), { action: 'Scan logs' }),
      'Scan logs was cancelled.',
    );
  });

  it('ends sentences with one full stop, whether or not the service message brings its own', () => {
    for (const said of ['Internal error', 'Internal error.']) {
      const text = describeAwsError(awsError('InternalFailure', said, 500), { action: 'List jobs' });
      assert.equal(text, 'List jobs failed: the service had an internal error (InternalFailure): Internal error. Try again later.');
      const denied = describeAwsError(awsError('AccessDenied', said.replace('Internal error', 'Not allowed'), 403));
      assert.match(denied, /The service said: Not allowed\.$/);
      const mlflow = describeMlflowError(new MlflowError('runs/get', 500, 'INTERNAL_ERROR', said, 'arn:mlflow'));
      assert.match(mlflow, /Try again later\. MLflow said: Internal error\.$/);
    }
  });

  it('falls back to the error name and message', () => {
    assert.equal(describeAwsError(awsError('ResourceInUse', 'Job x is running', 400)), 'ResourceInUse: Job x is running');
  });
});

describe('explainerFor: the sentence, and its kind for code that acts on it', () => {
  const explain = explainerFor(() => ({ profile: 'research', region: 'us-west-2' }));

  it('calls missing credentials no-credentials (the Jobs view offers Choose AWS Profile on it), with the same sentence', () => {
    const error = Object.assign(new Error('Could not load credentials from any providers'), { name: 'CredentialsProviderError' });
    const { kind, sentence } = explain.explained(error, 'Listing jobs');
    assert.equal(kind, 'no-credentials');
    assert.equal(sentence, explain(error, 'Listing jobs'));
    assert.match(sentence, /profile 'research'/);
  });

  it('tells an unreachable endpoint, a throttle and a plain service error apart', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    assert.equal(explain.explained(refused, 'Listing jobs').kind, 'unreachable');
    assert.equal(explain.explained(awsError('ThrottlingException', 'Rate exceeded', 400), 'Listing jobs').kind, 'throttled');
    assert.equal(explain.explained(awsError('ResourceInUse', 'Job x is running', 400), 'Deleting x').kind, 'other');
  });
});

describe('describeAwsError on errors from a bundle loaded apart', () => {
  it("explains another bundle's copy of PaginationError or SlowAnswer (same name, another class) as it explains its own", () => {
    for (const own of [
      new PaginationError('repeated-token', 'The server sent the same page token twice.', 3),
      new SlowAnswer('http://x', 10, 30),
    ]) {
      const copy = Object.assign(new Error(own.message), { name: own.name });
      assert.equal(describeAwsError(copy, { action: 'Listing jobs' }), describeAwsError(own, { action: 'Listing jobs' }));
      assert.match(describeAwsError(copy, { action: 'Listing jobs' }), /misbehaving|too slow/);
    }
  });
});
