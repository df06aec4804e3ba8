import { createHash } from 'node:crypto';
import { mlflowRunOf } from './jobs';
import { artifactLocation, rolloutOfTraceId, traceArtifactOf, traceWindow } from './traces';
import type { S3Object, World } from './world';

const ARTIFACT_KEY = /(?:^|\/)traces\/(tr-[0-9a-f]{32})\/artifacts\/traces\.json$/;

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
  const body = Buffer.from(traceArtifactOf(found.job, found.k));
  return {
    body,
    contentType: 'application/json',
    lastModified: traceWindow(found.job, found.k).end,
    etag: `"${createHash('md5').update(body).digest('hex')}"`,
  };
}
