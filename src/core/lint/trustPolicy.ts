import { TextPositions, type LintFinding, type TextEdit } from './findings';
import { parseJsonTree, property, stringList, type JsonNode } from './jsonTree';

const JOB_SERVICE = 'job.sagemaker.amazonaws.com';
const GENERAL_SERVICE = 'sagemaker.amazonaws.com';

/** A file that looks like an IAM trust policy: a Statement with a service principal. */
export function isTrustPolicy(text: string): boolean {
  return /"Statement"/.test(text) && /"Principal"\s*:\s*\{[^}]*"Service"/.test(text);
}

/** A trust policy file used as a training job role by its name. */
export function looksLikeJobRoleFile(fileName: string): boolean {
  return /job|training/i.test(fileName.split(/[\\/]/).pop() ?? '');
}

/** Role lint of a job role's trust policy: it must trust job.sagemaker.amazonaws.com with sts:AssumeRole and sts:TagSession. */
export function lintTrustPolicy(text: string): LintFinding[] {
  const root = parseJsonTree(text);
  const statements = property(root, 'Statement');
  const list: JsonNode[] = statements?.type === 'array' ? statements.items : statements ? [statements] : [];
  const out: LintFinding[] = [];
  const lines = new TextPositions(text);
  for (const statement of list) {
    if (property(statement, 'Effect')?.type === 'string' && (property(statement, 'Effect') as { value: string }).value !== 'Allow')
      continue;
    const services = stringList(property(property(statement, 'Principal'), 'Service'));
    const sagemaker = services.filter((s) => s.value === GENERAL_SERVICE || s.value === JOB_SERVICE);
    if (!sagemaker.length) continue;
    for (const s of sagemaker.filter((n) => n.value === GENERAL_SERVICE)) {
      out.push({
        rule: 'trusts-sagemaker',
        severity: 'error',
        message: `The role trusts ${GENERAL_SERVICE}; an Agent RFT job needs ${JOB_SERVICE}, or it fails with "Could not assume role".`,
        range: lines.rangeAt(s.offset, s.length),
        fix: { title: `Trust ${JOB_SERVICE}`, edits: [{ range: lines.rangeAt(s.offset, s.length), newText: JSON.stringify(JOB_SERVICE) }] },
      });
    }
    const action = property(statement, 'Action');
    const actions = stringList(action);
    if (action && !actions.some((a) => a.value === 'sts:TagSession' || a.value === 'sts:*' || a.value === '*')) {
      out.push({
        rule: 'missing-tag-session',
        severity: 'error',
        message: 'The job role must allow sts:TagSession as well as sts:AssumeRole for the SageMaker job service.',
        range: lines.rangeAt(action.offset, action.length),
        fix: { title: 'Add sts:TagSession', edits: [addTagSession(text, lines, action)] },
      });
    }
  }
  return out;
}

function addTagSession(text: string, lines: TextPositions, action: JsonNode): TextEdit {
  if (action.type === 'array' && action.items.length) {
    const last = action.items[action.items.length - 1];
    return { range: lines.rangeAt(last.offset + last.length, 0), newText: ', "sts:TagSession"' };
  }
  if (action.type === 'array') return { range: lines.rangeAt(action.offset, action.length), newText: '["sts:TagSession"]' };
  return {
    range: lines.rangeAt(action.offset, action.length),
    newText: `[${text.slice(action.offset, action.offset + action.length)}, "sts:TagSession"]`,
  };
}

/** Paths (as written) that a job file mentions, to find trust policies it uses whatever their name. */
export function referencedJsonFiles(jobFileText: string): string[] {
  const root = parseJsonTree(jobFileText);
  const found: string[] = [];
  const walk = (node: JsonNode | undefined) => {
    if (!node) return;
    if (node.type === 'string' && /\.json$/i.test(node.value) && !/^[a-z0-9]+:\/\//i.test(node.value)) found.push(node.value);
    if (node.type === 'object') node.properties.forEach((p) => walk(p.value));
    if (node.type === 'array') node.items.forEach(walk);
  };
  walk(root);
  return found;
}
