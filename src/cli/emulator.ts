import { startEmulator } from '../emulator/server';
import { SEEDED } from '../emulator/seed';
import { parseOptions, UsageError, type CliCommand } from './command';

const USAGE = `Usage: mtrl emulator [--port N] [--seed S] [--speed X] [--running-speed X] [--throttle-rate R] [--error-rate R] [--latency-ms N] [--delete-latency-ms N] [--s3-latency-ms N] [--denied-regions R,…] [--quota CODE=N]… [--expired-credentials] [--traces-without-spans] [--no-history] [--json]

Runs the local MTRL service on 127.0.0.1: SageMaker Jobs, CloudWatch Logs, S3, STS, IAM and
Bedrock AgentCore over their real wire protocols, with seeded jobs, runtimes and datasets.
Point the extension at it with the setting mtrl.aws.endpoint (any SigV4 key is accepted).

  --port N               port to listen on (default 0: any free port)
  --seed S               seed of the scripted rollouts (default "mtrl")
  --speed X              new jobs run X times faster than real time (default 60)
  --running-speed X      the seeded in-progress job runs X times faster than real time (default: --speed)
  --throttle-rate R      answer this fraction of requests with a throttling error (0-1)
  --error-rate R         answer this fraction of requests with a 500 (0-1)
  --latency-ms N         delay every answer by N ms
  --delete-latency-ms N  delay each S3 DeleteObjects answer by N ms more (a slow cleanup)
  --s3-latency-ms N      delay each S3 GET answer (an object, a listing) by N ms more (a far bucket)
  --denied-regions R,…   answer SageMaker, Logs, AgentCore and Service Quotas calls in these regions
                         with AccessDenied
  --quota CODE=N         a Service Quotas value instead of the seeded one (repeatable), e.g.
                         --quota L-A9CEE0B1=0 for a new account without MTRL training quota
  --expired-credentials  answer every request with ExpiredTokenException
  --traces-without-spans traces/batchGet returns no spans: readers must fetch each trace's
                         traces.json from S3 (also MTRL_EMULATOR_TRACES_WITHOUT_SPANS=1)
  --no-history           start without the seeded job history
  --json                 print the address and seeded names as one JSON line

Prints "listening on http://127.0.0.1:N" and runs until interrupted (Ctrl+C).`;

function rate(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`--${name} must be a number between 0 and 1, got '${value}'.`);
  return n;
}

function count(value: string | undefined, name: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min) throw new UsageError(`--${name} must be a number ≥ ${min}, got '${value}'.`);
  return n;
}

/** `L-A9CEE0B1=0` → `{ 'L-A9CEE0B1': 0 }`. */
function quotasOf(values: readonly string[]): Record<string, number> {
  const quotas: Record<string, number> = {};
  for (const value of values) {
    const m = /^(L-[0-9A-F]{8})=(\d+)$/.exec(value.trim());
    if (!m) throw new UsageError(`--quota takes CODE=N, e.g. L-A9CEE0B1=0; got '${value}'.`);
    quotas[m[1]] = Number(m[2]);
  }
  return quotas;
}

export const emulatorCommand: CliCommand = {
  name: 'emulator',
  usage: USAGE,
  async run(args, io) {
    const { values } = parseOptions(args, USAGE, {
      options: {
        port: { type: 'string' },
        seed: { type: 'string' },
        speed: { type: 'string' },
        'running-speed': { type: 'string' },
        'throttle-rate': { type: 'string' },
        'error-rate': { type: 'string' },
        'latency-ms': { type: 'string' },
        'delete-latency-ms': { type: 'string' },
        's3-latency-ms': { type: 'string' },
        'denied-regions': { type: 'string' },
        quota: { type: 'string', multiple: true },
        'expired-credentials': { type: 'boolean' },
        'traces-without-spans': { type: 'boolean' },
        'no-history': { type: 'boolean' },
        json: { type: 'boolean' },
      },
    });
    const port = count(values.port, 'port', 0);
    if (port !== undefined && (!Number.isInteger(port) || port > 65535))
      throw new UsageError(`--port must be an integer from 0 to 65535, got '${values.port}'.`);
    const speed = count(values.speed, 'speed', 0.001);
    const runningSpeed = count(values['running-speed'], 'running-speed', 0.001);
    // Options are checked before listening, so a bad rate is reported as itself and not as a port problem.
    const options = {
      port,
      seed: values.seed,
      speed,
      runningSpeed,
      throttleRate: rate(values['throttle-rate'], 'throttle-rate'),
      errorRate: rate(values['error-rate'], 'error-rate'),
      latencyMs: count(values['latency-ms'], 'latency-ms', 0),
      deleteLatencyMs: count(values['delete-latency-ms'], 'delete-latency-ms', 0),
      s3GetLatencyMs: count(values['s3-latency-ms'], 's3-latency-ms', 0),
      deniedRegions: values['denied-regions']?.split(',').map((r) => r.trim()),
      quotas: quotasOf(values.quota ?? []),
      expiredCredentials: values['expired-credentials'],
      tracesWithoutSpans: values['traces-without-spans'] || process.env.MTRL_EMULATOR_TRACES_WITHOUT_SPANS === '1',
      history: !values['no-history'],
      precomputeMetrics: true,
    };
    let emulator;
    try {
      emulator = await startEmulator(options);
    } catch (error) {
      throw new UsageError(`cannot listen on port ${port ?? 0}: ${(error as Error).message}`);
    }
    if (values.json) io.out(JSON.stringify({ url: emulator.url, account: '111122223333', ...SEEDED }));
    else {
      io.out(`listening on ${emulator.url}`);
      io.out(`account 111122223333, region us-east-1, speed ${speed ?? 60}x; runtime ${SEEDED.runtime}`);
      io.out(`set "mtrl.aws.endpoint": "${emulator.url}" to use it; Ctrl+C stops it.`);
    }
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await emulator.close();
    return 0;
  },
};
