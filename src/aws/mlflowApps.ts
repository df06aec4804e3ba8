import type { SageMakerClient } from '@aws-sdk/client-sagemaker';
import { sdk } from './sdkLoader';
import { paginateItems } from './paginate';

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
  const summaries = paginateItems(
    async (token, pageSignal) => {
      const page = await client.send(new (sdk().ListMlflowAppsCommand)({ NextToken: token }), { abortSignal: pageSignal });
      return { items: page.Summaries ?? [], next: page.NextToken };
    },
    { what: 'SageMaker ListMlflowApps', signal },
  );
  for await (const s of summaries) {
    if (s.Arn)
      yield {
        arn: s.Arn,
        name: s.Name ?? s.Arn.split('/').pop() ?? s.Arn,
        status: s.Status,
        mlflowVersion: s.MlflowVersion,
        created: s.CreationTime,
      };
  }
}

/** Deletes the app and the experiment history it holds. */
export async function deleteMlflowApp(client: SageMakerClient, arn: string, signal?: AbortSignal): Promise<void> {
  await client.send(new (sdk().DeleteMlflowAppCommand)({ Arn: arn }), { abortSignal: signal });
}
