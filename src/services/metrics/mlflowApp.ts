import type { AwsClients } from '../../aws/clients';
import { describeMlflowError } from '../../aws/mlflow/errors';
import { createPresignedMlflowAppUrl } from '../../aws/sagemaker';
import type { MlflowResource } from '../../core/metrics/mlflow';

/** A fresh single-use sign-in URL of the MLflow app a job logs to. */
export function mlflowAppUrl(aws: AwsClients, resource: MlflowResource): Promise<string> {
  return createPresignedMlflowAppUrl(aws.sagemaker(resource.region), resource.arn);
}

/** An MLflow call's failure as a sentence naming the fix and the current profile and endpoint. */
export function mlflowFailure(aws: AwsClients, error: unknown, action: string, region?: string): string {
  const { profile, endpoint } = aws.current;
  return describeMlflowError(error, { profile, endpoint, region, action });
}
