import type { Clock } from './clock';
import type { EnvironmentName } from './episode';
import type { JobCategory } from '../core/jobs/status';
import type { Job } from './jobModel';
import { JobRolloutStream, JobServiceStream, StoredStream, type LogStreamSource } from './logStreams';

export const ACCOUNT = '111122223333';

export interface Runtime {
  id: string;
  region: string;
  name: string;
  arn: string;
  created: number;
  /** `raises-on-400`: a support agent that raises when the Job Runtime answers 400 (as outside a job); `key-error`: one that raises KeyError before the policy call. */
  kind: 'ready' | 'no-server' | 'error-status' | 'raises-on-400' | 'key-error';
  description: string;
  /** The agent's REASONING_EFFORT: a runtime environment variable, so one runtime per effort. */
  effort: 'low' | 'medium' | 'high';
  /** The game this agent plays (default Wordle). */
  environment?: EnvironmentName;
  /** Logs no rollout record, as the sample agent: its log holds only the SDK's lines (replay reads the MLflow traces). */
  silent?: boolean;
}

export interface S3Object {
  body: Buffer;
  contentType?: string;
  /** User metadata as `x-amz-meta-<name>` headers. */
  metadata?: Record<string, string>;
  lastModified: number;
  etag: string;
}

export interface Role {
  name: string;
  arn: string;
  created: number;
  trustPolicy: Record<string, unknown>;
  /** Managed policy ARNs attached to the role. */
  attachedPolicies: string[];
  /** Inline policies by name. */
  inlinePolicies: Map<string, Record<string, unknown>>;
}

export interface MlflowApp {
  arn: string;
  name: string;
  region: string;
  created: number;
  mlflowVersion: string;
  artifactStoreUri: string;
}

/** An EventBridge rule and its targets, kept as PutRule and PutTargets gave them (the emulator never fires it). */
export interface EventRule {
  name: string;
  arn: string;
  bus: string;
  eventPattern?: string;
  state: string;
  description?: string;
  targets: Map<string, Record<string, unknown>>;
}

export interface LogGroupView {
  name: string;
  created: number;
  streams: LogStreamSource[];
}

/** Everything the emulated account holds: jobs, runtimes, buckets, roles and stored logs. */
export class World {
  readonly jobs = new Map<string, Job>();
  readonly runtimes: Runtime[] = [];
  readonly buckets = new Map<string, Map<string, S3Object>>();
  readonly roles = new Map<string, Role>();
  readonly mlflowApps: MlflowApp[] = [];
  /** Deleted apps answer ResourceNotFound on the MLflow API even though finished jobs still name them. */
  readonly deletedMlflowApps = new Set<string>();
  /** Service Quotas values set apart from the seeded ones, by quota code (a new account's 0, for tests). */
  readonly quotas = new Map<string, number>();
  /** `bucket/key` of objects whose deletion is denied (a bucket policy or legal hold): DeleteObjects reports AccessDenied for them. */
  readonly undeletableKeys = new Set<string>();
  /** Names of jobs whose DescribeJob leaves out `JobConfigDocument` (optional in the service model), for tests. */
  readonly jobsWithoutDocument = new Set<string>();
  /** Names of training jobs whose ServiceOutput carries no checkpoint (the service model has no checkpoint member), for tests. */
  readonly jobsWithoutCheckpoint = new Set<string>();
  /** SNS topics by ARN. */
  readonly topics = new Set<string>();
  /** EventBridge buses besides each region's `default`, as `region/name`. */
  readonly eventBuses = new Set<string>();
  /** EventBridge rules by `region/bus/name`. */
  readonly eventRules = new Map<string, EventRule>();
  readonly multipart = new Map<
    string,
    { bucket: string; key: string; contentType?: string; metadata: Record<string, string>; parts: Map<number, Buffer> }
  >();
  /** The fault switch for the artifact path: `traces/batchGet` returns traces without spans (as when a client cannot parse them). */
  tracesWithoutSpans = false;
  /** Stored log groups per `region/group`. */
  private readonly storedGroups = new Map<string, { created: number; streams: Map<string, StoredStream> }>();

  constructor(
    readonly clock: Clock,
    readonly speed: number,
    readonly region: string,
    readonly seed: string,
  ) {}

  /** Jobs are regional: the same name may exist in two regions. */
  jobKey(category: JobCategory, name: string, region = this.region): string {
    return `${region}/${category}/${name}`;
  }

  /** A runtime by ARN, or by id within a region. */
  runtimeByArnOrId(arnOrId: string, region: string): Runtime | undefined {
    return this.runtimes.find((r) => r.arn === arnOrId || (r.id === arnOrId && r.region === region));
  }

  /** Appends a line to a stored stream, creating the group and stream as the service would. */
  log(region: string, group: string, stream: string, message: string, time = this.clock.now()): void {
    const key = `${region}/${group}`;
    let g = this.storedGroups.get(key);
    if (!g) this.storedGroups.set(key, (g = { created: time, streams: new Map() }));
    let s = g.streams.get(stream);
    if (!s) g.streams.set(stream, (s = new StoredStream(stream, time)));
    s.append(time, message);
  }

  /** A region's log groups at time `now`: runtime groups with one generated stream per job, the jobs' service groups, and stored streams. */
  logGroups(now: number, region: string): Map<string, LogGroupView> {
    const groups = new Map<string, LogGroupView>();
    const group = (name: string, created: number) => {
      let g = groups.get(name);
      if (!g) groups.set(name, (g = { name, created, streams: [] }));
      g.created = Math.min(g.created, created);
      return g;
    };
    for (const r of this.runtimes) if (r.region === region) group(runtimeLogGroup(r.id), r.created);
    for (const job of this.jobs.values()) {
      if (job.created > now || job.region !== region) continue;
      group(`/aws/sagemaker/Job/${job.category}`, job.created).streams.push(new JobServiceStream(job, now));
      const runtime = job.runtimeId ? this.runtimeByArnOrId(job.runtimeId, region) : undefined;
      if (runtime) group(runtimeLogGroup(runtime.id), job.created).streams.push(new JobRolloutStream(job, now, !runtime.silent));
    }
    for (const [key, g] of this.storedGroups)
      if (key.startsWith(`${region}/`)) group(key.slice(region.length + 1), g.created).streams.push(...g.streams.values());
    for (const g of groups.values()) g.streams.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return groups;
  }

  /** An MLflow app's artifact store (where its trace artifacts are); an app the emulator does not hold uses the emulator's bucket. */
  mlflowArtifactStore(resourceArn: string): string {
    return this.mlflowApps.find((a) => a.arn === resourceArn)?.artifactStoreUri ?? 's3://mtrl-emulator-mlflow';
  }
}

export function runtimeLogGroup(runtimeId: string): string {
  return `/aws/bedrock-agentcore/runtimes/${runtimeId}-DEFAULT`;
}
