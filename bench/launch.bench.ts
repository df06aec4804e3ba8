// Pre-flight of the demo job file against the in-process emulator (real SDK over loopback HTTP, 20 ms latency per call).
// Baseline, same run: the same pre-flight with a cold schema cache (DescribeJobSchemaVersion fetched and compiled every time).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AwsClients } from '../src/aws/clients';
import { explainerFor } from '../src/aws/errors';
import { listJobs } from '../src/aws/sagemaker';
import { DocumentSchemas } from '../src/core/jobs/documentSchema';
import { parseJobFile } from '../src/core/jobs/jobfile';
import { STATIC_MODELS, modelsInRegion } from '../src/core/jobs/models';
import { readDatasets } from '../src/services/datasets/channels';
import { runPreflight, type PreflightDeps } from '../src/services/launch/preflight';
import { startEmulator } from '../src/emulator/server';

const RUNS = 7;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  process.env.AWS_ACCESS_KEY_ID = 'test';
  process.env.AWS_SECRET_ACCESS_KEY = 'test';
  const emulator = await startEmulator({ latencyMs: 20 });
  const aws = new AwsClients(() => ({ region: 'us-east-1', endpoint: emulator.url }));
  const job = parseJobFile(
    readFileSync(path.resolve(__dirname, '../test/fixtures/demo-workspace/wordle-training.mtrl.json'), 'utf8'),
  ).jobFile!;
  const deps = (schemas: DocumentSchemas): PreflightDeps => ({
    aws,
    schemas,
    models: async (region) => modelsInRegion(STATIC_MODELS, region),
    datasets: (channels, batch, signal) =>
      readDatasets(
        aws.s3(),
        channels,
        batch,
        explainerFor(() => aws.current),
        signal,
      ),
  });
  const time = async (run: () => Promise<unknown>) => {
    const at = performance.now();
    await run();
    return performance.now() - at;
  };
  const sequence = async (run: () => Promise<number>) => {
    const out: number[] = [];
    for (let i = 0; i < RUNS; i++) out.push(await run());
    return out;
  };
  try {
    await runPreflight(job, deps(new DocumentSchemas()));
    const roundTrip = median(
      await sequence(() =>
        time(async () => {
          for await (const j of listJobs(aws.sagemaker(), { JobCategory: 'AgentRFT', MaxResults: 1 })) if (j) break;
        }),
      ),
    );
    const cold: number[] = [];
    const warm: number[] = [];
    const shared = new DocumentSchemas();
    for (let i = 0; i < RUNS; i++) {
      cold.push(await time(() => runPreflight(job, deps(new DocumentSchemas()))));
      warm.push(await time(() => runPreflight(job, deps(shared))));
    }
    console.log(`one ListJobs round trip:                     ${roundTrip.toFixed(1)} ms`);
    console.log(
      `pre-flight, schema cached (as shipped):      ${median(warm).toFixed(1)} ms (median of ${RUNS}; 9 checks, 640 + 128 dataset rows streamed)`,
    );
    console.log(`baseline: pre-flight with a cold schema:     ${median(cold).toFixed(1)} ms`);
    console.log(
      `ratio cached / cold: ${(median(warm) / median(cold)).toFixed(2)}; pre-flight ≈ ${(median(warm) / roundTrip).toFixed(1)} round trips`,
    );
  } finally {
    aws.reset();
    await emulator.close();
  }
}

void main();
