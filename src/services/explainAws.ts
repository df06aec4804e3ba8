import { isAwsError, type Explain } from '../aws/errors';

/** An AWS service's or the SDK's error as the explainer's sentence; undefined for one of our own errors, whose message already is one. */
export function explainIfAws(explain: Explain, error: unknown, action: string, region?: string): string | undefined {
  return isAwsError(error) ? explain(error, action, region) : undefined;
}
