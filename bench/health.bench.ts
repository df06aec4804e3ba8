// Run health benchmark: the findings of a run of 1,000 steps × 60 keys against reading those metrics from MLflow
// (the real client over loopback HTTP, no added latency), both measured in this run; target ≤ 0.1×.
import { createServer } from 'node:http';
import { MlflowClient } from '../src/aws/mlflow/client';
import { checkHealth, HEALTH_KEYS } from '../src/core/health/check';
import type { MetricPoint } from '../src/core/metrics/mlflow';
import { parseMlflowArn } from '../src/core/metrics/mlflow';

const STEPS = 1_000;
const KEYS = [...HEALTH_KEYS, ...Array.from({ length: 60 - HEALTH_KEYS.length }, (_, i) => `analysis/extra_${i}`)];
const T0 = Date.UTC(2026, 9, 2);

/** A plausible run: steady values with noise, responses reaching the cap from step 700. */
function history(key: string): MetricPoint[] {
  const validation = key.startsWith('val/');
  const steps = validation ? Array.from({ length: STEPS / 10 + 1 }, (_, i) => i * 10) : Array.from({ length: STEPS }, (_, i) => i + 1);
  return steps.map((step) => {
    const noise = Math.sin(step * 12.9898 + key.length) * 0.05;
    const value = key.endsWith('response_max') && step >= 700 ? 4096 : 0.5 + noise;
    return { key, value, step, timestamp: T0 + step * 60_000 };
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

async function main(): Promise<void> {
  const series = Object.fromEntries(KEYS.map((k) => [k, history(k)]));
  const bodies = new Map(KEYS.map((k) => [k, JSON.stringify({ metrics: series[k] })]));
  const server = createServer((req, res) => {
    const key = new URL(req.url ?? '/', 'http://x').searchParams.get('metric_key') ?? '';
    res.writeHead(200, { 'content-type': 'application/json' }).end(bodies.get(key) ?? '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const client = new MlflowClient(parseMlflowArn('arn:aws:sagemaker:us-east-1:111122223333:mlflow-app/app-bench')!, {
    credentials: async () => ({ accessKeyId: 'test', secretAccessKey: 'test' }),
    endpoint: `http://127.0.0.1:${port}`,
  });
  try {
    const reads: number[] = [];
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      const histories = await Promise.all(KEYS.map((k) => client.metricHistory('run', k)));
      reads.push(performance.now() - start);
      if (histories.reduce((n, h) => n + h.points.length, 0) < STEPS * 50) throw new Error('the server sent fewer points than the run has');
    }
    const input = {
      category: 'AgentRFT' as const,
      series,
      hyperParameters: { sampling_max_tokens: '4096' },
      running: true,
      now: T0 + 1_001 * 60_000,
    };
    const checks: number[] = [];
    let kinds: string[] = [];
    for (let i = 0; i < 20; i++) {
      const start = performance.now();
      kinds = checkHealth(input).findings.map((f) => f.kind);
      checks.push(performance.now() - start);
    }
    if (!kinds.includes('truncation')) throw new Error(`the seeded truncation was not found (found: ${kinds.join(', ')})`);
    const [read, check] = [median(reads), median(checks)];
    const ratio = check / read;
    console.log(`run health over ${KEYS.length} keys × ${STEPS} steps (${(KEYS.length * STEPS).toLocaleString('en-US')} points):`);
    console.log(`  reading them from MLflow over loopback (baseline)  ${read.toFixed(1)} ms`);
    console.log(
      `  every check (findings)  ${check.toFixed(2)} ms  ratio ${ratio.toFixed(3)}  (target ≤ 0.1) ${ratio <= 0.1 ? 'ok' : 'OVER'}`,
    );
    if (ratio > 0.1) process.exitCode = 1;
  } finally {
    server.close();
  }
}

void main();
