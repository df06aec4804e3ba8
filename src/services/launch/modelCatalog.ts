import type { AwsClients } from '../../aws/clients';
import { listHubModels } from '../../aws/sagemaker';
import { mergeModels, modelsFromHub, modelsInRegion, STATIC_MODELS, type BaseModel } from '../../core/jobs/models';

/** Models offered per region: the public hub's MTRL recipes when it answers, else the static table; the setting overrides both. */
export class ModelCatalog {
  private readonly hub = new Map<string, Promise<BaseModel[] | undefined>>();

  constructor(
    private readonly aws: AwsClients,
    private readonly overrides: () => readonly BaseModel[],
  ) {}

  async offered(region: string, signal?: AbortSignal): Promise<BaseModel[]> {
    let lookup = this.hub.get(region);
    if (!lookup) {
      lookup = this.fromHub(region, signal);
      this.hub.set(region, lookup);
    }
    const hubModels = await lookup;
    return modelsInRegion(mergeModels(hubModels?.length ? hubModels : STATIC_MODELS, this.overrides()), region);
  }

  /** Forgets hub answers, e.g. after the AWS settings changed. */
  clear(): void {
    this.hub.clear();
  }

  private async fromHub(region: string, signal?: AbortSignal): Promise<BaseModel[] | undefined> {
    try {
      return modelsFromHub(region, await listHubModels(this.aws.sagemaker(region), 'SageMakerPublicHub', signal));
    } catch {
      // Accounts without hub access, and the emulator, fall back to the static table.
      this.hub.delete(region);
      return undefined;
    }
  }
}
