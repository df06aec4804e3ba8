import { credentialsFor, type AwsClients } from '../clients';
import type { MlflowResource } from '../../core/metrics/mlflow';
import { MlflowClient } from './client';

/** The MLflow client of a resource, signed with the same profile, region chain and endpoint as every other call. */
export function mlflowClientFor(aws: AwsClients, resource: MlflowResource): MlflowClient {
  const settings = aws.current;
  return new MlflowClient(resource, { credentials: credentialsFor(settings), endpoint: settings.endpoint });
}
