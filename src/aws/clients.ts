import { BedrockAgentCoreClient } from '@aws-sdk/client-bedrock-agentcore';
import { BedrockAgentCoreControlClient } from '@aws-sdk/client-bedrock-agentcore-control';
import { CloudWatchLogsClient } from '@aws-sdk/client-cloudwatch-logs';
import { IAMClient } from '@aws-sdk/client-iam';
import { S3Client } from '@aws-sdk/client-s3';
import { SageMakerClient } from '@aws-sdk/client-sagemaker';
import { STSClient } from '@aws-sdk/client-sts';
import { fromNodeProviderChain } from '@aws-sdk/credential-providers';

/** Where AWS calls go: a profile from ~/.aws (or the default chain), a region, and optionally one endpoint for every service (the emulator). */
export interface AwsSettings {
  profile?: string;
  region: string;
  endpoint?: string;
}

interface ClientConfig {
  region: string;
  endpoint?: string;
  forcePathStyle?: boolean;
  credentials: ReturnType<typeof fromNodeProviderChain>;
  maxAttempts: number;
}

type Constructor<T> = new (config: ClientConfig) => T;

/** Builds SDK clients on first use and caches them per (service, profile, region, endpoint). */
export class AwsClients {
  private readonly cache = new Map<string, { destroy(): void }>();

  constructor(private readonly settings: () => AwsSettings) {}

  get current(): AwsSettings {
    return this.settings();
  }

  sagemaker(region?: string): SageMakerClient {
    return this.client('sagemaker', SageMakerClient, region);
  }
  logs(region?: string): CloudWatchLogsClient {
    return this.client('logs', CloudWatchLogsClient, region);
  }
  s3(region?: string): S3Client {
    return this.client('s3', S3Client, region);
  }
  agentCore(region?: string): BedrockAgentCoreClient {
    return this.client('agentcore', BedrockAgentCoreClient, region);
  }
  agentCoreControl(region?: string): BedrockAgentCoreControlClient {
    return this.client('agentcore-control', BedrockAgentCoreControlClient, region);
  }
  sts(region?: string): STSClient {
    return this.client('sts', STSClient, region);
  }
  iam(): IAMClient {
    return this.client('iam', IAMClient, 'us-east-1');
  }

  /** Drops every cached client, e.g. after the profile, region or endpoint changed. */
  reset(): void {
    for (const client of this.cache.values()) client.destroy();
    this.cache.clear();
  }

  private client<T extends { destroy(): void }>(service: string, ctor: Constructor<T>, region?: string): T {
    const s = this.settings();
    const r = region ?? s.region;
    const key = [service, s.profile ?? '', r, s.endpoint ?? ''].join('|');
    let client = this.cache.get(key) as T | undefined;
    if (!client) {
      client = new ctor({
        region: r,
        endpoint: s.endpoint,
        // The emulator and LocalStack-style endpoints serve every bucket under one host.
        forcePathStyle: s.endpoint ? true : undefined,
        credentials: fromNodeProviderChain(s.profile ? { profile: s.profile } : {}),
        maxAttempts: 4,
      });
      this.cache.set(key, client);
    }
    return client;
  }
}
