// Metrics benchmarks: loading a 100-step run's 40 keys through the emulator at 20 ms latency, drawing 10,000 points in Chromium, the bundle size.
import * as esbuild from 'esbuild';
import { createServer } from 'node:http';
import path from 'node:path';
import { AwsClients } from '../src/aws/clients';
import { createJob } from '../src/aws/sagemaker';
import { ManualClock } from '../src/emulator/clock';
import { SEEDED } from '../src/emulator/seed';
import { startEmulator } from '../src/emulator/server';
import { appPage, newNonce } from '../src/webview-kit/page';
import { mlflowClientFor } from '../src/aws/mlflow/factory';
import { loadJobMetrics } from '../src/services/metrics/load';
import { METRICS_VIEW, type MetricsState } from '../src/shared/metrics';
import { trainingDocument } from '../test/unit/emulator/helpers';
import { launchChromium } from '../test/unit/features/browser';

const root = path.resolve(__dirname, '..');

async function loading(): Promise<void> {
  const clock = new ManualClock();
  const emulator = await startEmulator({ clock, history: false, latencyMs: 20 });
  const aws = new AwsClients(() => ({ region: 'us-east-1', endpoint: emulator.url }));
  try {
    await createJob(aws.sagemaker(), {
      JobName: 'bench',
      JobCategory: 'AgentRFT',
      RoleArn: SEEDED.jobRole,
      JobConfigSchemaVersion: '1.0.0',
      JobConfigDocument: JSON.stringify(trainingDocument({ global_batch_size: '32', group_size: '2', max_steps: '100', max_epochs: '10' })),
    });
    clock.advance(24 * 3_600_000);
    const ref = { jobName: 'bench', category: 'AgentRFT' as const, region: 'us-east-1' };
    // The emulator plays each step's rollouts once (mtrl emulator does it ahead, in idle time): the first load pays for it here.
    let start = performance.now();
    const warm = await loadJobMetrics(aws, ref);
    const cold = performance.now() - start;
    const keys = warm.keys.slice(0, 40);
    const client = mlflowClientFor(aws, warm.resource);
    start = performance.now();
    await client.getRun(warm.runId);
    const roundTrip = performance.now() - start;
    start = performance.now();
    const m = await loadJobMetrics(aws, ref, { keys });
    const ms = performance.now() - start;
    const points = Object.values(m.series).reduce((n, s) => n + s.length, 0);
    console.log(
      `load ${keys.length} keys × ${m.series['rollout/reward/mean'].length} steps (${points} points) through the emulator at 20 ms latency:`,
    );
    console.log(`  one request (baseline)  ${roundTrip.toFixed(0)} ms`);
    console.log(
      `  DescribeJob + run + ${keys.length} histories  ${ms.toFixed(0)} ms  ratio ${(ms / roundTrip).toFixed(1)}  (target ≤ 1000 ms) ${ms <= 1000 ? 'ok' : 'OVER'}`,
    );
    console.log(
      `  the same, steps not yet played by the emulator  ${cold.toFixed(0)} ms  (${(cold / ms).toFixed(1)}× the above: what the emulator's metrics ledger saves a first load)`,
    );
    if (ms > 1000) process.exitCode = 1;
  } finally {
    aws.reset();
    await emulator.close();
  }
}

async function bundle(): Promise<string> {
  const out = await esbuild.build({
    entryPoints: [path.join(root, 'webview/metrics.ts')],
    bundle: true,
    minify: true,
    write: false,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    loader: { '.css': 'text' },
    logLevel: 'silent',
  });
  const code = out.outputFiles[0].text;
  const kib = Buffer.byteLength(code) / 1024;
  console.log(`metrics webview bundle (minified): ${kib.toFixed(1)} KiB  (target ≤ 150 KiB) ${kib <= 150 ? 'ok' : 'OVER'}`);
  if (kib > 150) process.exitCode = 1;
  return code;
}

async function drawing(script: string): Promise<void> {
  const steps = Array.from({ length: 10_000 }, (_, i) => i + 1);
  const empty: MetricsState = { jobs: [], loading: false, window: 10, extraKeys: [] };
  const big: MetricsState = {
    ...empty,
    jobs: [
      {
        job: { name: 'big', category: 'AgentRFT', region: 'us-east-1' },
        running: false,
        keys: ['rollout/turns/mean'],
        series: { 'rollout/turns/mean': { steps, values: steps.map((s) => 4 + Math.sin(s / 50)) } },
      },
    ],
  };
  const server = createServer((req, res) => {
    if (req.url === '/metrics.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(appPage(METRICS_VIEW, { scriptUri: '/metrics.js', codiconUri: '/none.css', cspSource: origin, nonce: newNonce() }, empty));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
    await page.addInitScript(() => ((window as unknown as { mtrlSent: unknown[] }).mtrlSent = []));
    await page.goto(`${origin}/`);
    const render = (state: MetricsState) =>
      page.evaluate(async (s) => {
        const w = window as unknown as { mtrlSent: { type: string }[] };
        w.mtrlSent = [];
        const start = performance.now();
        (window as unknown as { mtrlHost: { notify(m: string, s: unknown): void } }).mtrlHost.notify('state', s);
        while (!w.mtrlSent.some((m) => m.type === 'drawn')) await new Promise((r) => setTimeout(r, 0));
        return performance.now() - start;
      }, state);
    const runs = { empty: [] as number[], big: [] as number[] };
    for (let i = 0; i < 5; i++) {
      runs.empty.push(await render(empty));
      runs.big.push(await render(big));
    }
    const e = Math.min(...runs.empty);
    const b = Math.min(...runs.big);
    console.log('draw in Chromium, fastest of 5:');
    console.log(`  empty view (baseline)   ${e.toFixed(1)} ms`);
    console.log(`  10,000 points           ${b.toFixed(1)} ms  (target ≤ 100 ms) ${b <= 100 ? 'ok' : 'OVER'}`);
    if (b > 100) process.exitCode = 1;
  } finally {
    await browser.close();
    server.close();
  }
}

void (async () => {
  await loading();
  await drawing(await bundle());
})();
