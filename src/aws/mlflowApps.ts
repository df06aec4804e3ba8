import type { SageMakerClient } from '@aws-sdk/client-sagemaker';
import { sdk } from './sdkLoader';

/** A SageMaker managed MLflow app, in the words the views use. */
interface MlflowAppInfo {
  arn: string;
  name: string;
  status?: string;
  mlflowVersion?: string;
  created?: Date;
}

/** Every MLflow app of the client's region, page after page. */
export async function* listMlflowApps(client: SageMakerClient, signal?: AbortSignal): AsyncIterable<MlflowAppInfo> {
  let token: string | undefined;
  do {
    const page = await client.send(new (sdk().ListMlflowAppsCommand)({ NextToken: token }), { abortSignal: signal });
    for (const s of page.Summaries ?? []) {
      if (s.Arn)
        yield {
          arn: s.Arn,
          name: s.Name ?? s.Arn.split('/').pop() ?? s.Arn,
          status: s.Status,
          mlflowVersion: s.MlflowVersion,
          created: s.CreationTime,
        };
    }
    token = page.NextToken;
  } while (token);
}

/** Deletes the app and the experiment history it holds. */
export async function deleteMlflowApp(client: SageMakerClient, arn: string, signal?: AbortSignal): Promise<void> {
  await client.send(new (sdk().DeleteMlflowAppCommand)({ Arn: arn }), { abortSignal: signal });
}
