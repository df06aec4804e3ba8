import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  isTrustPolicy,
  TextPositions,
  lintTrustPolicy,
  looksLikeJobRoleFile,
  referencedJsonFiles,
  type TextEdit,
} from '../../../../src/core/lint';

const fixture = (name: string) => readFileSync(path.resolve(__dirname, '../../../fixtures/lint', name), 'utf8');

function apply(text: string, edits: TextEdit[]): string {
  const lines = text.split('\n');
  const offset = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  return [...edits]
    .sort((a, b) => offset(b.range.start) - offset(a.range.start))
    .reduce((t, e) => t.slice(0, offset(e.range.start)) + e.newText + t.slice(offset(e.range.end)), text);
}

describe('role lint', () => {
  it('accepts a job role trusting job.sagemaker.amazonaws.com with sts:TagSession', () => {
    assert.equal(isTrustPolicy(fixture('training-role-good.json')), true);
    assert.deepEqual(lintTrustPolicy(fixture('training-role-good.json')), []);
  });

  it('flags sagemaker.amazonaws.com and a missing sts:TagSession, and both fixes give a clean policy', () => {
    const text = fixture('job-role-trust.json');
    const findings = lintTrustPolicy(text);
    assert.deepEqual(
      findings.map((f) => f.rule),
      ['trusts-sagemaker', 'missing-tag-session'],
    );
    assert.ok(findings.every((f) => f.severity === 'error'));
    assert.match(findings[0].message, /needs job\.sagemaker\.amazonaws\.com/);
    assert.equal(findings[0].range.start.line, 5);
    let fixed = apply(text, findings[0].fix!.edits);
    fixed = apply(fixed, lintTrustPolicy(fixed)[0].fix!.edits);
    assert.deepEqual(JSON.parse(fixed).Statement[0], {
      Effect: 'Allow',
      Principal: { Service: 'job.sagemaker.amazonaws.com' },
      Action: ['sts:AssumeRole', 'sts:TagSession'],
    });
    assert.deepEqual(lintTrustPolicy(fixed), []);
  });

  it('adds sts:TagSession to an action array', () => {
    const text = fixture('training-role-no-tag.json');
    const [finding] = lintTrustPolicy(text);
    assert.equal(finding.rule, 'missing-tag-session');
    assert.deepEqual(JSON.parse(apply(text, finding.fix!.edits)).Statement[0].Action, ['sts:AssumeRole', 'sts:TagSession']);
  });

  it('leaves other services alone and ignores text that is not JSON', () => {
    assert.deepEqual(
      lintTrustPolicy(
        '{"Statement":[{"Effect":"Allow","Principal":{"Service":"bedrock-agentcore.amazonaws.com"},"Action":"sts:AssumeRole"}]}',
      ),
      [],
    );
    assert.deepEqual(lintTrustPolicy('{"Statement": ['), []);
  });

  it('knows job role files by name or by reference from a job file', () => {
    assert.equal(looksLikeJobRoleFile('/w/iam/training-role.json'), true);
    assert.equal(looksLikeJobRoleFile('/w/iam/JobRole.json'), true);
    assert.equal(looksLikeJobRoleFile('/w/iam/runtime-role.json'), false);
    assert.deepEqual(referencedJsonFiles('{"roleTrustPolicy": "iam/role.json", "data": "s3://b/train.json", "n": 1}'), ['iam/role.json']);
  });

  it('a policy of thousands of statements: every finding and its fix point at its own statement', () => {
    const statement = '{"Effect":"Allow","Principal":{"Service":"sagemaker.amazonaws.com"},"Action":"sts:AssumeRole"}';
    const text = `{"Version":"2012-10-17","Statement":[\n${Array.from({ length: 3000 }, () => statement).join(',\n')}\n]}`;
    const findings = lintTrustPolicy(text);
    assert.equal(findings.length, 6000);
    findings.forEach((f, i) => {
      const line = 1 + Math.floor(i / 2);
      const column = f.rule === 'trusts-sagemaker' ? statement.indexOf('"sagemaker.') : statement.indexOf('"sts:AssumeRole"');
      assert.deepEqual([f.range.start.line, f.range.start.character], [line, column], `finding ${i}`);
      assert.deepEqual(f.fix!.edits[0].range.start, f.range.start, `fix ${i}`);
    });
  });

  it('line starts give the position a scan from the start of the text gives', () => {
    const text = 'a\n\nbc\r\n{"x":\n1}\n';
    const lines = new TextPositions(text);
    for (let offset = 0; offset <= text.length + 2; offset++) {
      const before = text.slice(0, offset);
      const line = before.split('\n').length - 1;
      assert.deepEqual(lines.positionAt(offset), { line, character: offset - (before.lastIndexOf('\n') + 1) }, `offset ${offset}`);
    }
  });
});
