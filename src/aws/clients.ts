import type { BedrockAgentCoreClient } from '@aws-sdk/client-bedrock-agentcore';
import type { BedrockAgentCoreControlClient } from '@aws-sdk/client-bedrock-agentcore-control';
import type { CloudWatchLogsClient } from '@aws-sdk/client-cloudwatch-logs';
import type { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import type { IAMClient } from '@aws-sdk/client-iam';
import type { LambdaClient } from '@aws-sdk/client-lambda';
import type { S3Client } from '@aws-sdk/client-s3';
import type { SageMakerClient } from '@aws-sdk/client-sagemaker';
import type { ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
import type { SNSClient } from '@aws-sdk/client-sns';
import type { STSClient } from '@aws-sdk/client-sts';
import type { StandardRetryStrategy } from '@smithy/core/retry';
import type {
  AwsCredentialIdentity,
  AwsCredentialIdentityProvider,
  InitializeMiddleware,
  MetadataBearer,
  MiddlewareStack,
} from '@smithy/types';
import { sdk } from './sdkLoader';

/** Where AWS calls go: a profile from ~/.aws (or the default chain), a region, and optionally one endpoint for every service (the emulator). */
export interface AwsSettings {
  profile?: string;
  region: string;
  endpoint?: string;
  /** Attempts per call including retries (the SDK's standard retry); default 4. */
  maxAttempts?: number;
  /** Milliseconds to open a connection before the call fails; default 5 s. */
  connectionTimeoutMs?: number;
  /** Milliseconds a call may wait for the answer to start, and a download may stall, before it fails; default 60 s. */
  requestTimeoutMs?: number;
}

/** Defaults that end a call against an endpoint that accepts and never answers, long enough for slow real calls. */
const DEFAULT_CONNECTION_TIMEOUT_MS = 5_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

interface ClientConfig {
  region: string;
  endpoint?: string;
  forcePathStyle?: boolean;
  credentials: AwsCredentialIdentityProvider;
  maxAttempts: number;
  retryStrategy: RetryStrategy;
  /** NodeHttpHandler options; the SDK builds its handler from them. */
  requestHandler: { connectionTimeout: number; requestTimeout: number; throwOnRequestTimeout: boolean; socketTimeout: number };
}

type Constructor<T> = new (config: ClientConfig) => T;

/** Credentials the local emulator accepts (it accepts any key); used only when the endpoint is loopback and nothing else is configured. */
export const EMULATOR_CREDENTIALS: AwsCredentialIdentity = { accessKeyId: 'test', secretAccessKey: 'test' };

/** True for http(s)://localhost, 127.x.x.x and [::1] endpoints: the local emulator or a LocalStack-style service. */
export function isLoopbackEndpoint(endpoint: string | undefined): boolean {
  if (!endpoint) return false;
  try {
    const host = new URL(endpoint).hostname;
    return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

/** The SDK's provider chain; against a loopback endpoint an empty chain falls back to test credentials so the emulator works out of the box. */
export function credentialsFor(settings: AwsSettings): AwsCredentialIdentityProvider {
  const chain = sdk().fromNodeProviderChain(settings.profile ? { profile: settings.profile } : {});
  if (!isLoopbackEndpoint(settings.endpoint) || settings.profile) return chain;
  return async (options) => {
    try {
      return await chain(options);
    } catch {
      return EMULATOR_CREDENTIALS;
    }
  };
}

type RetryStrategy = Pick<StandardRetryStrategy, 'mode' | 'acquireInitialRetryToken' | 'refreshRetryTokenForRetry' | 'recordSuccess'>;

/** The SDK's standard retry, except that a call that got no answer in time is not sent again: a silent endpoint fails after one timeout. */
function retryUnlessNoAnswer(maxAttempts: number): RetryStrategy {
  const standard = new (sdk().StandardRetryStrategy)(maxAttempts);
  return {
    mode: standard.mode,
    acquireInitialRetryToken: (scope) => standard.acquireInitialRetryToken(scope),
    refreshRetryTokenForRetry: (token, info) =>
      info.error?.name === 'TimeoutError' ? Promise.reject(info.error) : standard.refreshRetryTokenForRetry(token, info),
    recordSuccess: (token) => standard.recordSuccess(token),
  };
}

/** What tagErrors needs of an SDK client: its middleware stack. */
interface TaggableClient {
  destroy(): void;
  middlewareStack: Pick<MiddlewareStack<object, MetadataBearer>, 'add'>;
}

/** Every error a client throws names its service and operation (`$service`: "SageMaker ListJobs"), for sentences that say who failed. */
function tagErrors(client: TaggableClient, label: string): void {
  const middleware: InitializeMiddleware<object, MetadataBearer> = (next, context) => async (args) => {
    try {
      return await next(args);
    } catch (error) {
      if (error && typeof error === 'object' && !('$service' in error))
        Object.assign(error, { $service: `${label} ${(context.commandName ?? '').replace(/Command$/, '')}`.trim() });
      throw error;
    }
  };
  client.middlewareStack.add(middleware, { step: 'initialize', name: 'mtrlTagErrors' });
}

/** Builds SDK clients on first use and caches them per (service, profile, region, endpoint). */
export class AwsClients {
  private readonly cache = new Map<string, { destroy(): void }>();

  constructor(private readonly settings: () => AwsSettings) {}

  get current(): AwsSettings {
    return this.settings();
  }

  sagemaker(region?: string): SageMakerClient {
    return this.client('sagemaker', 'SageMaker', sdk().SageMakerClient, region);
  }
  logs(region?: string): CloudWatchLogsClient {
    return this.client('logs', 'CloudWatch Logs', sdk().CloudWatchLogsClient, region);
  }
  s3(region?: string): S3Client {
    return this.client('s3', 'S3', sdk().S3Client, region);
  }
  agentCore(region?: string): BedrockAgentCoreClient {
    return this.client('agentcore', 'Bedrock AgentCore', sdk().BedrockAgentCoreClient, region);
  }
  agentCoreControl(region?: string): BedrockAgentCoreControlClient {
    return this.client('agentcore-control', 'Bedrock AgentCore control', sdk().BedrockAgentCoreControlClient, region);
  }
  serviceQuotas(region?: string): ServiceQuotasClient {
    return this.client('service-quotas', 'Service Quotas', sdk().ServiceQuotasClient, region);
  }
  sts(region?: string): STSClient {
    return this.client('sts', 'STS', sdk().STSClient, region);
  }
  lambda(region?: string): LambdaClient {
    return this.client('lambda', 'Lambda', sdk().LambdaClient, region);
  }
  sns(region?: string): SNSClient {
    return this.client('sns', 'SNS', sdk().SNSClient, region);
  }
  events(region?: string): EventBridgeClient {
    return this.client('events', 'EventBridge', sdk().EventBridgeClient, region);
  }
  iam(): IAMClient {
    return this.client('iam', 'IAM', sdk().IAMClient, 'us-east-1');
  }

  /** Drops every cached client, e.g. after the profile, region or endpoint changed. */
  reset(): void {
    for (const client of this.cache.values()) client.destroy();
    this.cache.clear();
  }

  private client<T extends TaggableClient>(service: string, label: string, ctor: Constructor<T>, region?: string): T {
    const s = this.settings();
    const r = region ?? s.region;
    const key = [
      service,
      s.profile ?? '',
      r,
      s.endpoint ?? '',
      s.maxAttempts ?? '',
      s.connectionTimeoutMs ?? '',
      s.requestTimeoutMs ?? '',
    ].join('|');
    let client = this.cache.get(key) as T | undefined;
    if (!client) {
      client = new ctor({
        region: r,
        endpoint: s.endpoint || undefined,
        // The emulator and LocalStack-style endpoints serve every bucket under one host.
        forcePathStyle: s.endpoint ? true : undefined,
        credentials: credentialsFor(s),
        maxAttempts: s.maxAttempts ?? 4,
        retryStrategy: retryUnlessNoAnswer(s.maxAttempts ?? 4),
        requestHandler: {
          connectionTimeout: s.connectionTimeoutMs ?? DEFAULT_CONNECTION_TIMEOUT_MS,
          // Without throwOnRequestTimeout the SDK only logs a warning when the time is up.
          requestTimeout: s.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
          throwOnRequestTimeout: true,
          socketTimeout: s.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
        },
      });
      tagErrors(client, label);
      this.cache.set(key, client);
    }
    return client;
  }
}
