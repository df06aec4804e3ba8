import type { CloudWatchLogsClient, FilteredLogEvent, LogGroup, LogStream, OutputLogEvent } from '@aws-sdk/client-cloudwatch-logs';
import { paginate, paginateItems } from './paginate';
import { sdk } from './sdkLoader';

interface LogEventQuery {
  logGroupName: string;
  logStreamNames?: string[];
  logStreamNamePrefix?: string;
  /** Epoch milliseconds. */
  startTime?: number;
  endTime?: number;
  filterPattern?: string;
  /** Events per page (the service caps it at 10,000). */
  pageSize?: number;
  /** A smaller first page: the first events reach a reader that shows them as they come sooner. */
  firstPageSize?: number;
}

/** Matching events across the group's streams, page after page; stop iterating (or abort) to stop the scan. */
export async function* filterLogEvents(
  client: CloudWatchLogsClient,
  query: LogEventQuery,
  signal?: AbortSignal,
): AsyncIterable<FilteredLogEvent> {
  const pages = paginate(
    async (token, pageSignal) => {
      const page = await client.send(
        new (sdk().FilterLogEventsCommand)({
          logGroupName: query.logGroupName,
          logStreamNames: query.logStreamNames,
          logStreamNamePrefix: query.logStreamNamePrefix,
          startTime: query.startTime,
          endTime: query.endTime,
          filterPattern: query.filterPattern,
          limit: token === undefined ? (query.firstPageSize ?? query.pageSize) : query.pageSize,
          nextToken: token,
        }),
        { abortSignal: pageSignal },
      );
      return { items: page.events ?? [], next: page.nextToken };
    },
    // A filtered scan of a large group legitimately returns many empty pages while it walks the streams.
    {
      what: `CloudWatch Logs FilterLogEvents of ${query.logGroupName}`,
      signal,
      maxPages: 100_000,
      maxItems: 10_000_000,
      maxEmptyPages: 1_000,
    },
  );
  for await (const events of pages) {
    for (const event of events) {
      // Stop mid-page too: a cancelled scan must not hand out the rest of a 10,000-event page.
      signal?.throwIfAborted();
      yield event;
    }
  }
}

interface StreamQuery {
  logGroupName: string;
  logStreamName: string;
  startTime?: number;
  endTime?: number;
  /** Oldest first (default true). */
  startFromHead?: boolean;
}

/** One GetLogEvents page with both tokens: for views that page a stream themselves, in either direction. */
export async function getLogEventsPage(
  client: CloudWatchLogsClient,
  query: StreamQuery & { nextToken?: string; limit?: number },
  signal?: AbortSignal,
): Promise<{ events: OutputLogEvent[]; nextForwardToken?: string; nextBackwardToken?: string }> {
  const page = await client.send(new (sdk().GetLogEventsCommand)(query), { abortSignal: signal });
  return { events: page.events ?? [], nextForwardToken: page.nextForwardToken, nextBackwardToken: page.nextBackwardToken };
}

/** One stream's events; ends when the service returns the same forward token twice (its end-of-stream signal). */
export async function* getLogEvents(client: CloudWatchLogsClient, query: StreamQuery, signal?: AbortSignal): AsyncIterable<OutputLogEvent> {
  const pages = paginate(
    async (token, pageSignal) => {
      const page = await client.send(
        new (sdk().GetLogEventsCommand)({ ...query, startFromHead: query.startFromHead ?? true, nextToken: token }),
        { abortSignal: pageSignal },
      );
      const events = page.events ?? [];
      // An empty page is the stream's end, as is the token sent coming back (repeatEnds).
      return {
        items: events,
        next: events.length ? (query.startFromHead === false ? page.nextBackwardToken : page.nextForwardToken) : undefined,
      };
    },
    { what: `CloudWatch Logs GetLogEvents of ${query.logStreamName}`, signal, repeatEnds: true, maxPages: 100_000, maxItems: 10_000_000 },
  );
  for await (const events of pages) {
    for (const event of events) {
      signal?.throwIfAborted();
      yield event;
    }
  }
}

export async function* describeLogGroups(client: CloudWatchLogsClient, prefix?: string, signal?: AbortSignal): AsyncIterable<LogGroup> {
  yield* paginateItems(
    async (token, pageSignal) => {
      const page = await client.send(new (sdk().DescribeLogGroupsCommand)({ logGroupNamePrefix: prefix, nextToken: token }), {
        abortSignal: pageSignal,
      });
      return { items: page.logGroups ?? [], next: page.nextToken };
    },
    { what: `CloudWatch Logs DescribeLogGroups${prefix ? ` under ${prefix}` : ''}`, signal },
  );
}

interface StreamListing {
  prefix?: string;
  /** Newest first by last event time (prefix and ordering cannot be combined, as in the service). */
  newestFirst?: boolean;
}

export async function* describeLogStreams(
  client: CloudWatchLogsClient,
  logGroupName: string,
  listing: StreamListing = {},
  signal?: AbortSignal,
): AsyncIterable<LogStream> {
  yield* paginateItems(
    async (token, pageSignal) => {
      const page = await client.send(
        new (sdk().DescribeLogStreamsCommand)({
          logGroupName,
          logStreamNamePrefix: listing.prefix,
          orderBy: listing.newestFirst ? 'LastEventTime' : undefined,
          descending: listing.newestFirst ? true : undefined,
          nextToken: token,
        }),
        { abortSignal: pageSignal },
      );
      return { items: page.logStreams ?? [], next: page.nextToken };
    },
    { what: `CloudWatch Logs DescribeLogStreams of ${logGroupName}`, signal },
  );
}
