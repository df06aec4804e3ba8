// The SDK values the aws layer uses, in one module that is bundled on its own (dist/aws-sdk.js) and loaded on first use.
// Named re-exports (not `export *`) so esbuild keeps only what is listed here.
export { BedrockAgentCoreClient, InvokeAgentRuntimeCommand } from '@aws-sdk/client-bedrock-agentcore';
export {
  BedrockAgentCoreControlClient,
  DeleteAgentRuntimeCommand,
  GetAgentRuntimeCommand,
  ListAgentRuntimesCommand,
} from '@aws-sdk/client-bedrock-agentcore-control';
export {
  CloudWatchLogsClient,
  DescribeLogGroupsCommand,
  DescribeLogStreamsCommand,
  FilterLogEventsCommand,
  GetLogEventsCommand,
} from '@aws-sdk/client-cloudwatch-logs';
export {
  DeleteRuleCommand,
  EventBridgeClient,
  ListRulesCommand,
  ListTargetsByRuleCommand,
  PutRuleCommand,
  PutTargetsCommand,
  RemoveTargetsCommand,
} from '@aws-sdk/client-eventbridge';
export {
  DeleteRoleCommand,
  DeleteRolePolicyCommand,
  DetachRolePolicyCommand,
  GetRoleCommand,
  IAMClient,
  ListAttachedRolePoliciesCommand,
  ListRolePoliciesCommand,
  ListRolesCommand,
} from '@aws-sdk/client-iam';
export { GetFunctionConfigurationCommand, InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
export { DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
export {
  CreateJobCommand,
  CreatePresignedMlflowAppUrlCommand,
  DeleteJobCommand,
  DeleteMlflowAppCommand,
  DescribeJobCommand,
  DescribeJobSchemaVersionCommand,
  ListHubContentsCommand,
  ListJobSchemaVersionsCommand,
  ListJobsCommand,
  ListMlflowAppsCommand,
  SageMakerClient,
  StopJobCommand,
} from '@aws-sdk/client-sagemaker';
export { GetServiceQuotaCommand, ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
export { GetTopicAttributesCommand, SNSClient } from '@aws-sdk/client-sns';
export { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
export { fromNodeProviderChain } from '@aws-sdk/credential-providers';
export { Upload } from '@aws-sdk/lib-storage';
export { StandardRetryStrategy } from '@smithy/core/retry';
export { SignatureV4 } from '@smithy/signature-v4';
