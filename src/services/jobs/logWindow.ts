import type { AwsClients } from '../../aws/clients';
import { describeLogStreams, getLogEventsPage } from '../../aws/logs';

interface LogLine {
  timestamp: number;
  stream: string;
  message: string;
}

interface LogPage {
  lines: LogLine[];
  /** Token to continue in the same direction; equal to the request's token when the stream has nothing more. */
  token?: string;
  /** The other direction's token, from the first page only. */
  forwardToken?: string;
}

/** One job's service log streams, page by page in either direction. */
export interface JobLogSource {
  streams(): Promise<string[]>;
  /** The newest lines when `token` is undefined, else the page before it. */
  older(stream: string, token: string | undefined, limit: number): Promise<LogPage>;
  newer(stream: string, token: string | undefined, limit: number): Promise<LogPage>;
}

/** Streams in `/aws/sagemaker/Job/<Category>` named with the job name as prefix, a page at a time: the window keeps both tokens. */
export function cloudWatchJobLogSource(
  aws: Pick<AwsClients, 'logs'>,
  { region, category, jobName }: { region: string; category: string; jobName: string },
): JobLogSource {
  const client = aws.logs(region);
  const logGroupName = `/aws/sagemaker/Job/${category}`;
  const page = async (stream: string, token: string | undefined, limit: number, startFromHead: boolean): Promise<LogPage> => {
    const out = await getLogEventsPage(client, { logGroupName, logStreamName: stream, nextToken: token, limit, startFromHead });
    const lines = out.events.map((e) => ({ timestamp: e.timestamp ?? 0, stream, message: (e.message ?? '').replace(/\r?\n$/, '') }));
    return startFromHead
      ? { lines, token: out.nextForwardToken }
      : { lines, token: out.nextBackwardToken, forwardToken: out.nextForwardToken };
  };
  return {
    async streams() {
      const names: string[] = [];
      for await (const s of describeLogStreams(client, logGroupName, { prefix: jobName })) if (s.logStreamName) names.push(s.logStreamName);
      // `job-a/…` must not pick up `job-a-2/…`; other naming schemes fall back to the plain prefix.
      const exact = names.filter((n) => n === jobName || n.startsWith(`${jobName}/`));
      return exact.length ? exact : names;
    },
    older: (stream, token, limit) => page(stream, token, limit, false),
    newer: (stream, token, limit) => page(stream, token, limit, true),
  };
}

interface StreamCursor {
  backward?: string;
  forward?: string;
  olderDone: boolean;
}

/** What a log document shows: a window of a job's lines that grows older or newer on demand. */
export class JobLogWindow {
  lines: LogLine[] = [];
  private cursors = new Map<string, StreamCursor>();
  loaded = false;

  constructor(
    private readonly source: JobLogSource,
    private readonly pageSize = 200,
  ) {}

  get hasOlder(): boolean {
    return [...this.cursors.values()].some((c) => !c.olderDone);
  }

  get streamCount(): number {
    return this.cursors.size;
  }

  /** The newest page of every stream. */
  async load(): Promise<void> {
    this.cursors.clear();
    this.lines = [];
    await this.discover();
    this.loaded = true;
  }

  private async discover(): Promise<number> {
    let added = 0;
    for (const stream of await this.source.streams()) {
      if (this.cursors.has(stream)) continue;
      const first = await this.source.older(stream, undefined, this.pageSize);
      this.cursors.set(stream, { backward: first.token, forward: first.forwardToken, olderDone: first.lines.length < this.pageSize });
      added += this.add(first.lines);
    }
    return added;
  }

  /** One more page back in every stream that has one; returns the number of lines added. */
  async loadOlder(): Promise<number> {
    let added = 0;
    for (const [stream, cursor] of this.cursors) {
      if (cursor.olderDone) continue;
      const page = await this.source.older(stream, cursor.backward, this.pageSize);
      cursor.olderDone = !page.lines.length || page.token === cursor.backward;
      cursor.backward = page.token;
      added += this.add(page.lines);
    }
    return added;
  }

  /** Everything written since the last look, in every stream, and any new stream; returns the number of lines added. */
  async loadNewer(): Promise<number> {
    let added = 0;
    for (const [stream, cursor] of this.cursors) {
      for (;;) {
        const page = await this.source.newer(stream, cursor.forward, this.pageSize);
        const same = page.token === cursor.forward;
        cursor.forward = page.token;
        added += this.add(page.lines);
        if (!page.lines.length || same) break;
      }
    }
    return added + (await this.discover());
  }

  private add(lines: LogLine[]): number {
    if (!lines.length) return 0;
    this.lines = [...this.lines, ...lines].sort((a, b) => a.timestamp - b.timestamp);
    return lines.length;
  }

  /** The document text: one line per event, the stream named only when there are several. */
  render(header: string): string {
    const many = this.cursors.size > 1;
    const body = this.lines.map((l) => `${new Date(l.timestamp).toISOString()}  ${many ? `[${l.stream}]  ` : ''}${l.message}`);
    const empty = this.loaded ? ['(no service log lines yet)'] : [];
    return [header, ...(body.length ? body : empty)].join('\n') + '\n';
  }
}
