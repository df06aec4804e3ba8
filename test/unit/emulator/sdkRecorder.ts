/** One SDK call as it flowed: the command's input, its operation schema, the parsed output and the raw response body. */
export interface Exchange {
  clientPackage: string;
  operation: string;
  schema: unknown[];
  input: unknown;
  output?: unknown;
  /** The response body when the SDK read it as a document (not a stream). */
  body?: string;
  contentType?: string;
  status?: number;
}

const EXCHANGE = Symbol('exchange');
type Context = Record<string | symbol, unknown>;
type Next = (args: object) => Promise<{ output?: unknown; response?: unknown }>;
type Middleware = (next: Next, context: Context) => Next;
/** What the recorder needs of an SDK client: its middleware stack. */
export interface RecordableClient {
  middlewareStack: { add(...args: never[]): void };
}

function add(client: RecordableClient, middleware: Middleware, options: { step: string; name: string; priority?: string }): void {
  (client.middlewareStack.add as (m: Middleware, o: object) => void).call(client.middlewareStack, middleware, options);
}

/** Records every call a client sends: a middleware at `initialize` (input, output) and one inside the deserializer (the raw body). */
export function recordCalls(
  client: RecordableClient,
  clientPackage: string,
  into: Exchange[],
  streams: (schema: unknown[]) => boolean,
): void {
  add(
    client,
    (next, context) => async (args) => {
      const smithy = context.__smithy_context as { operationSchema?: unknown[] } | undefined;
      const exchange: Exchange = {
        clientPackage,
        operation: String(context.commandName).replace(/Command$/, ''),
        schema: smithy?.operationSchema ?? [],
        input: (args as { input: unknown }).input,
      };
      context[EXCHANGE] = exchange;
      into.push(exchange);
      const result = await next(args);
      exchange.output = result.output;
      return result;
    },
    { step: 'initialize', name: 'recordCallForModelCheck' },
  );
  add(
    client,
    (next, context) => async (args) => {
      const result = await next(args);
      const exchange = context[EXCHANGE] as Exchange | undefined;
      const response = result.response as { statusCode: number; headers: Record<string, string>; body: unknown };
      if (!exchange || streams(exchange.schema)) return result;
      const chunks: Buffer[] = [];
      for await (const chunk of response.body as AsyncIterable<Buffer>) chunks.push(Buffer.from(chunk));
      const body = Buffer.concat(chunks);
      response.body = new Uint8Array(body);
      Object.assign(exchange, { body: body.toString('utf8'), contentType: response.headers['content-type'], status: response.statusCode });
      return result;
    },
    // Low priority inside the deserialize step: this runs between the deserializer and the HTTP handler.
    { step: 'deserialize', priority: 'low', name: 'recordBodyForModelCheck' },
  );
}
