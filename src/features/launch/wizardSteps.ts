import * as vscode from 'vscode';
import { mlflowVersionNote } from '../../core/jobs/mlflowVersion';
import { jobNameProblem } from '../../core/jobs/preflight';
import { checkRoleTrust } from '../../core/jobs/roleTrust';
import { MTRL_REGIONS } from '../../core/jobs/regions';
import type { JobCategory } from '../../core/jobs/status';
import { parseS3Uri } from '../../core/s3/location';
import { mlflowAppsToPick, rolesToPick } from '../../services/launch/choices';
import { jobsIn } from '../../services/jobs/lookup';
import { runtimesIn } from '../../services/runtimes';
import type { Services } from '../services';
import { jobRegions } from '../aws/settings';
import { describeRecord } from '../../core/smoke/record';
import type { CommonAnswers } from '../../services/launch/answers';
import { BACK, CANCEL, inputStep, pickStep, subStep, type StepOutcome, type StepPosition } from './wizardInput';

type Outcome = 'next' | typeof BACK | typeof CANCEL;
const done = <T>(r: StepOutcome<T>, apply: (v: T) => void): Outcome => {
  if (r === BACK) return BACK;
  if (r === CANCEL) return CANCEL;
  apply(r as T);
  return 'next';
};

const RUNTIME_ARN = /^arn:aws[a-z-]*:bedrock-agentcore:[a-z0-9-]+:[0-9]{12}:runtime\/[a-zA-Z0-9_-]+$/;
const ROLE_ARN = /^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]+$/;
const MLFLOW_ARN = /^arn:[a-z0-9-.]+:sagemaker:[^:]+:[^:]+:mlflow-app\/.+$/;
export const S3_URI = /^s3:\/\/[^/]+(\/.*)?$/;

export async function regionStep(a: CommonAnswers, p: StepPosition): Promise<Outcome> {
  const regions = [...new Set([a.region, ...jobRegions(), ...MTRL_REGIONS])];
  const r = await pickStep({
    ...p,
    placeholder: 'Region of the job (the agent runtime must be in the same region)',
    items: regions.map((label) => ({ label })),
    active: (i) => i.label === a.region,
  });
  return done(r, (v) => (a.region = v.label));
}

export async function runtimeStep(services: Services, a: CommonAnswers, p: StepPosition): Promise<Outcome> {
  const typed = { label: '$(edit) Enter a runtime ARN…', alwaysShow: true };
  const smokeResults = services.stores.smokeResults;
  const r = await pickStep<vscode.QuickPickItem & { arn?: string }>({
    ...p,
    placeholder: `Agent runtime in ${a.region} (listed with its status)`,
    items: async () => {
      const listed: (vscode.QuickPickItem & { arn?: string })[] = [];
      for await (const rt of runtimesIn(services.aws, a.region)) {
        const ready = rt.status === 'READY';
        const smoke = rt.agentRuntimeArn ? smokeResults.get(rt.agentRuntimeArn) : undefined;
        const icon = !ready || smoke?.ok === false ? '$(warning)' : '$(vm-running)';
        // A failed smoke test stays visible here: launching on that runtime would pay for a job that fails.
        listed.push({
          label: `${icon} ${rt.agentRuntimeName ?? rt.agentRuntimeId}`,
          description: `${rt.status} · ${describeRecord(smoke)}`,
          detail: smoke?.ok === false ? `${rt.agentRuntimeArn} — ${smoke.summary}` : rt.agentRuntimeArn,
          arn: rt.agentRuntimeArn,
        });
      }
      return [...listed, typed];
    },
    // No runtime chosen yet: the first listed runtime has focus, not "Enter a runtime ARN…" (whose arn is also undefined).
    active: (i) => a.runtimeArn !== undefined && i.arn === a.runtimeArn,
  });
  if (r === BACK || r === CANCEL) return r;
  if (r.arn) return done(r, () => (a.runtimeArn = r.arn));
  const arn = await inputStep({
    ...subStep(p, 'runtime ARN'),
    prompt: 'AgentCore runtime ARN',
    value: a.runtimeArn,
    validate: (v) => runtimeProblem(v, a.region),
  });
  return done(arn, (v) => (a.runtimeArn = v));
}

function runtimeProblem(arn: string, region: string): string | undefined {
  if (!RUNTIME_ARN.test(arn)) return 'Expected arn:aws:bedrock-agentcore:<region>:<account>:runtime/<id>.';
  const runtimeRegion = arn.split(':')[3];
  return runtimeRegion === region
    ? undefined
    : `The runtime is in ${runtimeRegion}; the job runs in ${region}. They must be in the same region.`;
}

export async function roleStep(services: Services, a: CommonAnswers, p: StepPosition): Promise<Outcome> {
  type Item = vscode.QuickPickItem & { arn?: string; type?: boolean };
  const r = await pickStep<Item>({
    ...p,
    placeholder: 'Job role: it must trust job.sagemaker.amazonaws.com with sts:AssumeRole and sts:TagSession',
    items: async () => {
      const roles: Item[] = [];
      try {
        for await (const role of rolesToPick(services.aws)) {
          const verdict = checkRoleTrust(role.arn, role.trustPolicy?.Statement);
          roles.push({
            label: `${verdict.level === 'pass' ? '$(pass)' : '$(warning)'} ${role.roleName}`,
            description: verdict.level === 'pass' ? 'trusts job.sagemaker.amazonaws.com' : 'not usable as is',
            detail: verdict.message,
            arn: role.arn,
          });
        }
      } catch {
        // Listing needs iam:ListRoles; typing the ARN still works.
      }
      // Roles the job service can assume first; the rest stay visible with why they would fail.
      roles.sort((x, y) => Number(y.label.startsWith('$(pass)')) - Number(x.label.startsWith('$(pass)')));
      if (a.roleArn && !roles.some((x) => x.arn === a.roleArn))
        roles.unshift({ label: a.roleArn, description: 'last used', arn: a.roleArn });
      return [...roles, { label: '$(edit) Enter a role ARN…', type: true }];
    },
    active: (i) => i.arn === a.roleArn,
  });
  if (r === BACK || r === CANCEL) return r;
  if (!r.type && r.arn) {
    a.roleArn = r.arn;
    return 'next';
  }
  const typed = await inputStep({
    ...subStep(p, 'role ARN'),
    prompt: 'Job role ARN: it must trust job.sagemaker.amazonaws.com with sts:AssumeRole and sts:TagSession',
    placeholder: 'arn:aws:iam::111122223333:role/MtrlJobRole',
    value: a.roleArn,
    validate: (v) => (ROLE_ARN.test(v) ? undefined : 'Expected arn:aws:iam::<account>:role/<name>.'),
  });
  return done(typed, (v) => (a.roleArn = v));
}

export async function outputStep(a: CommonAnswers, p: StepPosition, dataset: string | undefined): Promise<Outcome> {
  const bucket = dataset ? parseS3Uri(dataset)?.bucket : undefined;
  const r = await inputStep({
    ...p,
    prompt: 'S3 output path for checkpoints and results',
    value: a.outputPath ?? (bucket ? `s3://${bucket}/output` : ''),
    validate: (v) => (S3_URI.test(v) ? undefined : 'Expected s3://bucket/prefix.'),
  });
  return done(r, (v) => (a.outputPath = v));
}

export async function mlflowStep(services: Services, a: CommonAnswers, p: StepPosition, defaultExperiment: string): Promise<Outcome> {
  type Item = vscode.QuickPickItem & { arn?: string; type?: boolean };
  const r = await pickStep<Item>({
    ...p,
    placeholder: 'MLflow app for metrics (reward, turns, pass@k per step)',
    items: async () => {
      const apps: Item[] = [];
      try {
        for await (const app of mlflowAppsToPick(services.aws, a.region)) {
          // An app below MLflow 3.10 stays pickable (the pre-flight refuses it with the reason) but says so here first.
          const tooOld = mlflowVersionNote(app.mlflowVersion);
          apps.push({
            label: tooOld ? `$(warning) ${app.name}` : app.name,
            description: [app.status, tooOld ?? (app.mlflowVersion && `MLflow ${app.mlflowVersion}`)].filter(Boolean).join(' · '),
            detail: app.arn,
            arn: app.arn,
          });
        }
      } catch {
        // Listing needs sagemaker:ListMlflowApps; typing the ARN still works.
      }
      if (a.mlflowArn && !apps.some((x) => x.arn === a.mlflowArn))
        apps.unshift({ label: a.mlflowArn, description: 'last used', arn: a.mlflowArn });
      return [
        ...apps,
        { label: '$(edit) Enter an MLflow app ARN…', type: true },
        { label: '$(circle-slash) None: no MLflow metrics', arn: '' },
      ];
    },
    active: (i) => i.arn === (a.mlflowArn ?? ''),
  });
  if (r === BACK || r === CANCEL) return r;
  let arn = r.arn;
  if (r.type) {
    const typed = await inputStep({
      ...subStep(p, 'MLflow app ARN'),
      prompt: 'MLflow app ARN',
      value: a.mlflowArn,
      validate: (v) => (MLFLOW_ARN.test(v) ? undefined : 'Expected arn:aws:sagemaker:<region>:<account>:mlflow-app/<id>.'),
    });
    if (typed === BACK || typed === CANCEL) return typed;
    arn = typed;
  }
  a.mlflowArn = arn || undefined;
  if (!a.mlflowArn) return 'next';
  const exp = await inputStep({
    ...subStep(p, 'MLflow experiment'),
    prompt: 'MLflow experiment name',
    value: a.experimentName ?? defaultExperiment,
    validate: (v) => (v ? undefined : 'Enter an experiment name.'),
  });
  return done(exp, (v) => (a.experimentName = v));
}

export async function jobNameStep(
  services: Services,
  a: CommonAnswers,
  p: StepPosition,
  category: JobCategory,
  suggestion: string,
): Promise<Outcome> {
  const r = await inputStep({
    ...p,
    prompt: 'Job name (letters, digits, hyphens; unique in the region)',
    value: a.jobName ?? suggestion,
    validate: async (v) => {
      const problem = jobNameProblem(v);
      if (problem) return problem;
      try {
        for await (const j of jobsIn(services.aws, a.region, { JobCategory: category, NameContains: v }))
          if (j.JobName === v) return `A job named ${v} already exists.`;
      } catch {
        // Offline or not allowed to list: the pre-flight checks uniqueness again and says why.
      }
      return undefined;
    },
  });
  return done(r, (v) => (a.jobName = v));
}

/** "wordle-grpo-1129-1904": a readable default that is rarely taken. */
export function suggestJobName(stem: string, now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${stem}-${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}`;
}
