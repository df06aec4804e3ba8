/** A base model MTRL can train (always as a LoRA adapter). */
export interface BaseModel {
  /** The SageMaker public hub model id, e.g. `openai-reasoning-gpt-oss-20b`. */
  id: string;
  name: string;
  regions: readonly string[];
  /** Reasoning models need sampling_max_tokens 8192. */
  reasoning?: boolean;
}

/**
 * The models documented today. Gemma 4 31B is offered in us-west-2 but its hub id is
 * not published, so it comes only from the hub lookup or the `mtrl.launch.models` setting.
 */
export const STATIC_MODELS: readonly BaseModel[] = [
  { id: 'openai-reasoning-gpt-oss-20b', name: 'GPT-OSS-20B', regions: ['us-east-1', 'us-west-2'], reasoning: true },
  { id: 'nova-textgeneration-lite-v2', name: 'Amazon Nova 2 Lite', regions: ['us-east-1', 'us-west-2'] },
  { id: 'huggingface-vlm-qwen3-6-27b', name: 'Qwen 3.6 27B', regions: ['us-west-2'] },
];

/** The hub keyword that marks models with an MTRL fine-tuning recipe. */
const MTRL_HUB_KEYWORD = '@recipe:finetuning_mtrl';

export function baseModelArn(region: string, modelId: string): string {
  return `arn:aws:sagemaker:${region}:aws:hub-content/SageMakerPublicHub/Model/${modelId}`;
}

const MODEL_ARN = /^arn:aws[a-z-]*:sagemaker:([a-z0-9-]+):aws:hub-content\/SageMakerPublicHub\/Model\/([^/]+)(?:\/.*)?$/;

/** The region and hub model id named by a base model ARN, or undefined for another kind of ARN. */
export function parseBaseModelArn(arn: string): { region: string; modelId: string } | undefined {
  const m = MODEL_ARN.exec(arn);
  return m ? { region: m[1], modelId: m[2] } : undefined;
}

/** Models offered in a region, from the given table (static, hub or setting). */
export function modelsInRegion(models: readonly BaseModel[], region: string): BaseModel[] {
  return models.filter((m) => m.regions.includes(region));
}

/** The table with each override replacing the model of the same id and new ids appended. */
export function mergeModels(base: readonly BaseModel[], overrides: readonly BaseModel[]): BaseModel[] {
  const byId = new Map(base.map((m) => [m.id, m]));
  for (const o of overrides) byId.set(o.id, { ...byId.get(o.id), ...o });
  return [...byId.values()];
}

/** Reads the `mtrl.launch.models` setting: entries missing an id or regions are dropped, not guessed. */
export function modelsFromSetting(value: unknown): BaseModel[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: unknown) => {
    const e = entry as Partial<BaseModel> | null;
    if (!e || typeof e.id !== 'string' || !Array.isArray(e.regions)) return [];
    const regions = e.regions.filter((r): r is string => typeof r === 'string');
    return [{ id: e.id, name: typeof e.name === 'string' ? e.name : e.id, regions, reasoning: e.reasoning === true }];
  });
}

/** The hub summaries that carry the MTRL recipe keyword, as models of one region. */
export function modelsFromHub(
  region: string,
  summaries: readonly { HubContentName?: string; HubContentDisplayName?: string; HubContentSearchKeywords?: string[] }[],
): BaseModel[] {
  return summaries
    .filter((s) => s.HubContentName && s.HubContentSearchKeywords?.includes(MTRL_HUB_KEYWORD))
    .map((s) => {
      const id = s.HubContentName as string;
      const known = STATIC_MODELS.find((m) => m.id === id);
      return {
        id,
        name: s.HubContentDisplayName ?? known?.name ?? id,
        regions: [region],
        reasoning: known?.reasoning ?? /reasoning/.test(id),
      };
    });
}
