import { ServiceError } from './protocol';
import type { MlflowApp, World } from './world';

type Input = Record<string, unknown>;
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

/** SageMaker managed MLflow apps: ListMlflowApps (paged), DescribeMlflowApp, DeleteMlflowApp (gone at once; the service passes through Deleting). */
export function mlflowApps(world: World, operation: string, input: Input, region: string): unknown {
  switch (operation) {
    case 'ListMlflowApps': {
      const apps = world.mlflowApps.filter((a) => a.region === region);
      const start = Number(input.NextToken ?? 0);
      const max = Number(input.MaxResults ?? 50);
      const next = start + max;
      return { Summaries: apps.slice(start, next).map(summary), NextToken: next < apps.length ? String(next) : undefined };
    }
    case 'DescribeMlflowApp': {
      const app = appOf(world, input, region);
      return {
        ...summary(app),
        ArtifactStoreUri: app.artifactStoreUri,
        RoleArn: `arn:aws:iam::${app.arn.split(':')[4]}:role/MtrlMlflowRole`,
      };
    }
    case 'DeleteMlflowApp': {
      const app = appOf(world, input, region);
      world.mlflowApps.splice(world.mlflowApps.indexOf(app), 1);
      world.deletedMlflowApps.add(app.arn);
      return { Arn: app.arn };
    }
    default:
      return undefined;
  }
}
