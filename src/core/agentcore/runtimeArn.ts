/** The runtime id from an AgentCore runtime ARN, or undefined. */
export function runtimeIdFromArn(arn: string): string | undefined {
  return /^arn:aws[a-z-]*:bedrock-agentcore:[a-z0-9-]+:\d{12}:runtime\/([a-zA-Z0-9_-]+)$/.exec(arn)?.[1];
}
