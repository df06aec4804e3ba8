// The S3 fallback of a job's traces (REST gives no spans): `mtrl rollouts --job … --from traces --json` (the built CLI)
// on the real run's 1,511 rollouts, the emulator answering each S3 GET after 20 ms, against a bare SDK loop of GetObject +
// JSON.parse over the same artifacts at the same concurrency, in the same run. Target: ≤ 5 s.
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { AwsClients } from '../src/aws/clients';
import { describeJob } from '../src/aws/sagemaker';
import { parseS3Uri } from '../src/aws/s3';
import { traceArtifactUri } from '../src/core/rollouts';
import { ARTIFACT_READS_AT_ONCE, traceRunOf } from '../src/services/rollouts/traces';

const root = path.resolve(__dirname, '..');
const JOB = 'openai-reasoning-gpt-oss-20b-mtrl-20261002040558';
const ARTIFACTS = 1511;
const GET_MS = 20;
const env = { ...process.env, AWS_ACCESS_KEY_ID: 'bench', AWS_SECRET_ACCESS_KEY: 'bench', AWS_REGION: 'us-east-1' };

/** The emulator in its own process (its work is not the reader's), traces without spans, each S3 GET late; without
 * `mtrl emulator`'s metrics precomputed in idle time, which would take the CPU the reader is measured on. */
async function startEmulator(): Promise<{ url: string; stop: () => void }> {
  const script = `import { startEmulator } from './src/emulator/server.ts';
const e = await startEmulator({ tracesWithoutSpans: true, s3GetLatencyMs: ${GET_MS} });
console.log(JSON.stringify({ url: e.url }));`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.on('exit', (code) => reject(new Error(`the emulator exited ${code}`)));
  });
  return { url, stop: () => child.kill() };
}

interface Ran {
  seconds: number;
  cpuSeconds: number;
}

/** The CLI end to end: wall and CPU seconds, and the rollouts it read. */
async function mtrlRollouts(url: string): Promise<Ran & { rollouts: number }> {
  const start = performance.now();
  const child = spawn(
    process.execPath,
    [
      '--require',
      path.join(root, 'bench/lib/maxRss.cjs'),
      'dist/cli.js',
      'rollouts',
      '--job',
      JOB,
      '--from',
      'traces',
      '--endpoint',
      url,
      '--json',
    ],
    {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (err += chunk));
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
  if (code !== 0) throw new Error(`mtrl rollouts exited ${code}: ${err}`);
  return {
    seconds: (performance.now() - start) / 1000,
    cpuSeconds: Number(/maxRSS \d+ cpu (\d+)/.exec(err)?.[1]) / 1e6,
    rollouts: (JSON.parse(out) as { rollouts: number }).rollouts,
  };
}

/** The artifacts' S3 locations, listed once through MLflow REST (not timed). */
async function artifactLocations(aws: AwsClients): Promise<{ bucket: string; key: string }[]> {
  const signal = new AbortController().signal;
  const described = await describeJob(aws.sagemaker(), { jobName: JOB, category: 'AgentRFT' }, signal);
  const run = (await traceRunOf(aws, JOB, described, signal))!;
  const out: { bucket: string; key: string }[] = [];
  for await (const page of run.client.searchTraces({ experimentId: run.experimentId, runId: run.runId, limit: ARTIFACTS }, signal))
    for (const info of page) out.push(parseS3Uri(traceArtifactUri(info)!)!);
  return out;
}

/** A bare SDK loop: ARTIFACT_READS_AT_ONCE workers, each GetObject then JSON.parse, nothing else. */
async function bareLoop(aws: AwsClients, locations: { bucket: string; key: string }[]): Promise<Ran> {
  const s3 = aws.s3();
  let next = 0;
  let spans = 0;
  const start = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: ARTIFACT_READS_AT_ONCE }, async () => {
      while (next < locations.length) {
        const { bucket, key } = locations[next++];
        const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        spans += (JSON.parse(await object.Body!.transformToString()) as { spans: unknown[] }).spans.length;
      }
    }),
  );
  if (!spans) throw new Error('no spans read');
  const used = process.cpuUsage(cpu);
  return { seconds: (performance.now() - start) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'ignore' });
  const emulator = await startEmulator();
  Object.assign(process.env, env);
  const aws = new AwsClients(() => ({ region: 'us-east-1', endpoint: emulator.url }));
  try {
    const locations = await artifactLocations(aws);
    if (locations.length !== ARTIFACTS) throw new Error(`${locations.length} traces listed, not ${ARTIFACTS}`);
    const bare: Ran[] = [];
    const mtrl: (Ran & { rollouts: number })[] = [];
    for (let round = 0; round < 3; round++) {
      bare.push(await bareLoop(aws, locations));
      mtrl.push(await mtrlRollouts(emulator.url));
    }
    if (mtrl[0].rollouts !== ARTIFACTS) throw new Error(`mtrl rollouts read ${mtrl[0].rollouts} of ${ARTIFACTS} rollouts`);
    const fastest = (runs: Ran[]) => ({
      seconds: Math.min(...runs.map((r) => r.seconds)),
      cpuSeconds: Math.min(...runs.map((r) => r.cpuSeconds)),
    });
    const b = fastest(bare);
    const m = fastest(mtrl);
    console.log(
      `${ARTIFACTS} trace artifacts from S3 at ${GET_MS} ms a GET, ${ARTIFACT_READS_AT_ONCE} at once, fastest of 3 interleaved runs:`,
    );
    console.log(`  bare SDK loop (GetObject + JSON.parse)            wall ${b.seconds.toFixed(2)} s   CPU ${b.cpuSeconds.toFixed(2)} s`);
    console.log(
      `  mtrl rollouts --job … --from traces (end to end)  wall ${m.seconds.toFixed(2)} s   CPU ${m.cpuSeconds.toFixed(2)} s   wall ratio ${(m.seconds / b.seconds).toFixed(2)}   ${m.seconds <= 5 ? '≤' : '>'} 5 s`,
    );
    if (m.seconds > 5) process.exitCode = 1;
  } finally {
    aws.reset();
    emulator.stop();
  }
}

void main();
