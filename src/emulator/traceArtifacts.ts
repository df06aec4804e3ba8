import { createHash } from 'node:crypto';
import type { Job } from './jobModel';
import { mlflowRunOf } from './jobs';
import { artifactLocation, rolloutOfTraceId, traceArtifactOf, traceWindow } from './traces';
import type { S3Object, World } from './world';

const ARTIFACT_KEY = /(?:^|\/)traces\/(tr-[0-9a-f]{32})\/artifacts\/traces\.json$/;

/** Artifacts made lately, per job: a second read of a run's traces (another opening, a bench's next round) does not
 * replay every game again; bounded, so a 100,000-rollout job still keeps next to nothing. */
const made = new WeakMap<Job, Map<number, { body: Buffer; etag: string }>>();
const MADE_PER_JOB = 2048;

function madeArtifact(job: Job, k: number): { body: Buffer; etag: string } {
  let kept = made.get(job);
  if (!kept) made.set(job, (kept = new Map()));
  let artifact = kept.get(k);
  if (!artifact) {
    const body = Buffer.from(traceArtifactOf(job, k));
    artifact = { body, etag: `"${createHash('md5').update(body).digest('hex')}"` };
    kept.set(k, artifact);
    if (kept.size > MADE_PER_JOB) kept.delete(kept.keys().next().value!);
  }
  return artifact;
}

/**
 * A finished rollout's `traces.json`, read from S3 where its trace's `mlflow.artifactLocation` tag points: made when
 * read (a 100,000-rollout job stores nothing) and never listed, so listings and the Resources view see only real uploads.
 */
export function traceArtifactObject(world: World, bucket: string, key: string): S3Object | undefined {
  const id = ARTIFACT_KEY.exec(key)?.[1];
  if (!id) return undefined;
  const now = world.clock.now();
  const jobs = [...world.jobs.values()].filter((j) => j.created <= now && mlflowRunOf(j));
  const found = rolloutOfTraceId(jobs, id, now);
  if (!found) return undefined;
  const store = world.mlflowArtifactStore(mlflowRunOf(found.job)!.resourceArn);
  if (`s3://${bucket}/${key}` !== `${artifactLocation(found.job, found.k, store)}/traces.json`) return undefined;
  const { body, etag } = madeArtifact(found.job, found.k);
  return { body, contentType: 'application/json', lastModified: traceWindow(found.job, found.k).end, etag };
}
