import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { listenForAWhile } from './lifetime';

// Small MLflow, SageMaker and S3 stand-ins that misbehave on purpose, for the product (real SDK, real fetch) to meet.
// Each loop is bounded and the server closes itself after `lifetimeMs`, so a test that forgets it cannot hang the run.

export const MLFLOW_APP = 'arn:aws:sagemaker:us-east-1:123456789012:mlflow-app/app-HOSTILE1';
export const RUN_ID = 'run-hostile';

/** How the MLflow `metrics/get-history` answers. */
export type HistoryMode =
  | { kind: 'points'; points: unknown[] }
  | { kind: 'repeat-token' }
  | { kind: 'empty-endless' }
  | { kind: 'full-endless'; perPage: number }
  | { kind: 'bomb'; inflatedBytes: number }
  | { kind: 'drip'; everyMs: number }
  | { kind: 'raw'; status: number; body: string; headers?: Record<string, string> };

/** How S3 GetObject answers: `bytes` of JSON-looking text, no headers at all, headers then silence, a gzip bomb, or JSON `levels` deep. */
export type ObjectMode =
  | { kind: 'endless'; bytes: number }
  | { kind: 'no-headers' }
  | { kind: 'stalled-body' }
  | { kind: 'bomb'; inflatedBytes: number }
  | { kind: 'deep'; levels: number };

export interface Hostility {
  /** Metric keys `runs/get` lists (default one reward key). */
  keys?: string[];
  history?: HistoryMode;
  /** `traces/search`: a token that never changes. */
  tracesRepeat?: boolean;
  /** `traces/search` lists this many traces, each with its `traces.json` in S3 (answered as `object` says); batchGet has no spans. */
  traces?: number;
  /** SageMaker ListJobs and S3 ListObjectsV2: a token that never changes. */
  listRepeat?: boolean;
  /** Answers every SageMaker call with this status and error (e.g. 429 ThrottlingException). */
  sagemakerFault?: { status: number; type: string; message: string };
  /** Answers every SageMaker call 200 with this body (an HTML page, a cut-off JSON). */
  sagemakerBody?: string;
  /** How S3 GetObject answers (other S3 calls list one key). */
  object?: ObjectMode;
  lifetimeMs?: number;
}

export interface StandIn {
  url: string;
  requests: Map<string, number>;
  close(): Promise<void>;
}

const DOCUMENT = {
  TrainingConfig: { MlflowConfig: { MlflowResourceArn: MLFLOW_APP, MlflowExperimentName: 'hostile' } },
  ServiceOutput: { MlflowDetails: { RunId: RUN_ID, ExperimentId: '1' } },
};

const json = (res: ServerResponse, status: number, body: unknown, type = 'application/json') => {
  res.writeHead(status, { 'content-type': type });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};

/** Gzipped zeros by inflated size, compressed when the stand-in starts: compressing while a client waited starved it. */
const bombs = new Map<number, Buffer>();

/** `bytes` zero bytes gzipped (level 9: a few hundred KB per GB), compressed a MB at a time. */
async function gzippedZeros(bytes: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = once(gzip, 'end');
  const zeros = Buffer.alloc(1 << 20);
  for (let left = Math.ceil(bytes / zeros.length); left > 0; left--) if (!gzip.write(zeros)) await once(gzip, 'drain');
  gzip.end();
  await ended;
  return Buffer.concat(out);
}

/** The gzip bomb of `bytes` inflated: a few hundred KB on the wire at most. */
function bomb(res: ServerResponse, bytes: number): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
  res.end(bombs.get(bytes));
}

/** Sends a valid-looking start, then one byte every `everyMs`, at most 600 bytes. */
function drip(res: ServerResponse, everyMs: number): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"metrics":[');
  let sent = 0;
  const timer = setInterval(() => {
    if (res.destroyed || ++sent > 600) return void (clearInterval(timer), res.end());
    res.write(' ');
  }, everyMs);
  res.on('close', () => clearInterval(timer));
}

function history(res: ServerResponse, mode: HistoryMode, url: URL, count: number): void {
  switch (mode.kind) {
    case 'points':
      return json(res, 200, { metrics: mode.points });
    case 'repeat-token':
      return json(res, 200, {
        metrics: [{ key: url.searchParams.get('metric_key'), value: 1, step: 1, timestamp: 1 }],
        next_page_token: 'again',
      });
    case 'empty-endless':
      return json(res, 200, { next_page_token: `token-${count}` });
    case 'full-endless': {
      const key = url.searchParams.get('metric_key');
      const metrics = Array.from({ length: mode.perPage }, (_, i) => ({ key, value: i, step: count * mode.perPage + i, timestamp: 1 }));
      return json(res, 200, { metrics, next_page_token: `token-${count}` });
    }
    case 'bomb':
      return bomb(res, mode.inflatedBytes);
    case 'drip':
      return drip(res, mode.everyMs);
    case 'raw':
      res.writeHead(mode.status, { 'content-type': 'application/json', ...mode.headers });
      return void res.end(mode.body);
  }
}

function mlflow(res: ServerResponse, url: URL, h: Hostility, count: number): void {
  const path = url.pathname.replace(/^\/api\/[23]\.0\/mlflow\//, '');
  if (path === 'runs/get') {
    const keys = h.keys ?? ['rollout/reward/mean'];
    const metrics = keys.map((key) => ({ key, value: 1, step: 1, timestamp: 1 }));
    return json(res, 200, { run: { info: { run_id: RUN_ID, experiment_id: '1', status: 'RUNNING' }, data: { metrics } } });
  }
  if (path === 'metrics/get-history') return history(res, h.history ?? { kind: 'points', points: [] }, url, count);
  if (path === 'traces/search') return json(res, 200, h.tracesRepeat ? { traces: [], next_page_token: 'again' } : { traces: traces(h) });
  if (path === 'traces/batchGet') return json(res, 200, { traces: [] });
  json(res, 404, { error_code: 'ENDPOINT_NOT_FOUND', message: path });
}

const traces = (h: Hostility) =>
  Array.from({ length: h.traces ?? 0 }, (_, i) => ({
    trace_id: `tr-${i}`,
    request_time: new Date(1_700_000_000_000 + i).toISOString(),
    tags: { 'mlflow.artifactLocation': `s3://mlflow-artifacts/1/traces/tr-${i}/artifacts` },
  }));

function sagemaker(res: ServerResponse, operation: string, h: Hostility): void {
  const type = 'application/x-amz-json-1.1';
  if (h.sagemakerFault) {
    res.writeHead(h.sagemakerFault.status, { 'content-type': type, 'x-amzn-errortype': h.sagemakerFault.type });
    return void res.end(JSON.stringify({ __type: h.sagemakerFault.type, message: h.sagemakerFault.message }));
  }
  if (h.sagemakerBody !== undefined) return json(res, 200, h.sagemakerBody, type);
  if (operation === 'DescribeJob')
    return json(
      res,
      200,
      {
        JobName: 'hostile',
        JobCategory: 'AgentRFT',
        JobStatus: 'InProgress',
        JobArn: 'arn:aws:sagemaker:us-east-1:123456789012:job/AgentRFT/hostile',
        JobConfigDocument: JSON.stringify(DOCUMENT),
      },
      type,
    );
  if (operation === 'ListJobs') return json(res, 200, { JobSummaries: [], NextToken: h.listRepeat ? 'again' : undefined }, type);
  json(res, 400, { __type: 'UnknownOperationException', message: operation }, type);
}

/** Writes `bytes` bytes of `[0,0,…` in 64 KiB chunks, then ends: the reader under test must stop first. */
function endless(res: ServerResponse, bytes: number): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.from('[' + '0,'.repeat(32 * 1024)).subarray(0, 64 * 1024);
  let left = bytes;
  const pump = () => {
    while (left > 0 && !res.destroyed) {
      const piece = chunk.subarray(0, Math.min(chunk.length, left));
      left -= piece.length;
      if (!res.write(piece)) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
}

function s3Object(res: ServerResponse, mode: ObjectMode): void {
  switch (mode.kind) {
    case 'endless':
      return endless(res, mode.bytes);
    case 'no-headers':
      return;
    case 'stalled-body':
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      return void res.write('{"spans":');
    case 'bomb':
      return bomb(res, mode.inflatedBytes);
    case 'deep':
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(`{"spans":[${'{"a":'.repeat(mode.levels)}1${'}'.repeat(mode.levels)}]}`);
  }
}

function s3List(res: ServerResponse, h: Hostility): void {
  const token = h.listRepeat
    ? '<IsTruncated>true</IsTruncated><NextContinuationToken>again</NextContinuationToken>'
    : '<IsTruncated>false</IsTruncated>';
  res.writeHead(200, { 'content-type': 'application/xml' });
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>b</Name><KeyCount>1</KeyCount><Contents><Key>k</Key><Size>1</Size></Contents>${token}</ListBucketResult>`,
  );
}

/** Starts the stand-in on 127.0.0.1; it answers at most 200,000 requests and closes itself after `lifetimeMs` (default 60 s). */
export async function startStandIn(h: Hostility): Promise<StandIn> {
  for (const mode of Object.values(h) as { kind?: string; inflatedBytes?: number }[])
    if (mode?.kind === 'bomb' && mode.inflatedBytes && !bombs.has(mode.inflatedBytes))
      bombs.set(mode.inflatedBytes, await gzippedZeros(mode.inflatedBytes));
  const requests = new Map<string, number>();
  let total = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      if (++total > 200_000) return void res.destroy();
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const target = String(req.headers['x-amz-target'] ?? '');
      const name = target ? `sagemaker:${target.split('.').pop()}` : url.pathname.includes('/mlflow/') ? url.pathname : `s3:${req.method}`;
      const count = (requests.get(name) ?? 0) + 1;
      requests.set(name, count);
      // CloudWatch Logs (a job's runtime log and step ends) holds nothing.
      if (target.startsWith('Logs_')) return json(res, 200, { events: [], logStreams: [] }, 'application/x-amz-json-1.1');
      if (target) return sagemaker(res, target.split('.').pop() ?? '', h);
      if (url.pathname.includes('/mlflow/')) return mlflow(res, url, h, count);
      if (req.method === 'GET' && h.object && !url.searchParams.has('list-type')) return s3Object(res, h.object);
      return s3List(res, h);
    });
  });
  const { port, close } = await listenForAWhile(server, h.lifetimeMs ?? 60_000);
  return { url: `http://127.0.0.1:${port}`, requests, close };
}
