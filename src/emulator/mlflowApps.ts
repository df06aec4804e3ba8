import { randomUUID } from 'node:crypto';
import { mlflowRunOf } from './jobs';
import { ServiceError } from './protocol';
import type { MlflowApp, World } from './world';

type Input = Record<string, unknown>;
type Handler = (world: World, input: Input, region: string, host: string | undefined) => unknown;
const seconds = (ms: number) => ms / 1000;

function summary(app: MlflowApp) {
  return {
    Arn: app.arn,
    Name: app.name,
    Status: 'Created',
    CreationTime: seconds(app.created),
    LastModifiedTime: seconds(app.created),
    MlflowVersion: app.mlflowVersion,
  };
}

function appOf(world: World, input: Input, region: string): MlflowApp {
  const arn = String(input.Arn ?? '');
  const app = world.mlflowApps.find((a) => a.arn === arn && a.region === region);
  if (!app) throw new ServiceError('ResourceNotFound', `MLflow app ${arn} does not exist.`);
  return app;
}

/** An app the MLflow API answers for: a listed one, or one a job logs to (jobs may name apps of other regions), unless deleted. */
export function isKnownMlflowApp(world: World, arn: string): boolean {
  return (
    !world.deletedMlflowApps.has(arn) &&
    (world.mlflowApps.some((a) => a.arn === arn) || [...world.jobs.values()].some((j) => mlflowRunOf(j)?.resourceArn === arn))
  );
}

/** SageMaker managed MLflow apps: ListMlflowApps (paged), DescribeMlflowApp, DeleteMlflowApp (gone at once; the service passes through Deleting), CreatePresignedMlflowAppUrl. */
export const MLFLOW_APP_OPERATIONS: Record<string, Handler> = {
  ListMlflowApps: (world, input, region) => {
    const apps = world.mlflowApps.filter((a) => a.region === region);
    const start = Number(input.NextToken ?? 0);
    const max = Number(input.MaxResults ?? 50);
    const next = start + max;
    return { Summaries: apps.slice(start, next).map(summary), NextToken: next < apps.length ? String(next) : undefined };
  },
  DescribeMlflowApp: (world, input, region) => {
    const app = appOf(world, input, region);
    return {
      ...summary(app),
      ArtifactStoreUri: app.artifactStoreUri,
      RoleArn: `arn:aws:iam::${app.arn.split(':')[4]}:role/MtrlMlflowRole`,
    };
  },
  DeleteMlflowApp: (world, input, region) => {
    const app = appOf(world, input, region);
    world.mlflowApps.splice(world.mlflowApps.indexOf(app), 1);
    world.deletedMlflowApps.add(app.arn);
    return { Arn: app.arn };
  },
  // A single-use URL of the emulator's stand-in for the MLflow UI, on the host the caller reached.
  CreatePresignedMlflowAppUrl: (world, input, _region, host) => {
    const arn = String(input.Arn ?? '');
    if (!isKnownMlflowApp(world, arn)) throw new ServiceError('ResourceNotFound', `MLflow app ${arn} does not exist.`, 400);
    return {
      AuthorizedUrl: `http://${host ?? '127.0.0.1'}/mlflow-ui/${encodeURIComponent(arn.split('/').pop() ?? '')}/auth?authToken=${randomUUID()}`,
    };
  },
};
