/** A line of the agent file that names the model's host itself instead of reading the payload's `metadata.endpoint`. */
export interface HardCodedEndpoint {
  /** 1-based. */
  line: number;
  text: string;
}

// Best first: the Job Runtime's host written out, an environment variable with a URL default, any base_url literal.
const PATTERNS = [
  /job-runtime\.sagemaker/,
  /(?:environ\.get|getenv)\(\s*["'][^"']+["']\s*,\s*f?["']https?:\/\//,
  /base_url\s*=\s*f?["']https?:\/\//,
];

/** The line to change so the agent calls the endpoint the payload names, or undefined when none is found. */
export function findHardCodedEndpoint(source: string): HardCodedEndpoint | undefined {
  const lines = source.split(/\r?\n/);
  for (const pattern of PATTERNS) {
    const i = lines.findIndex((l) => !l.trimStart().startsWith('#') && pattern.test(l));
    if (i >= 0) return { line: i + 1, text: lines[i].trim() };
  }
  return undefined;
}

/** What to tell the user when no model call arrived: the line to change, or where to look, and the packages that were missing. */
export function ignoredEndpointAdvice(file: string, found: HardCodedEndpoint | undefined, stubbed: readonly string[] = []): string {
  const fix =
    'read the model endpoint from the payload instead (payload["metadata"]["endpoint"], the Job Runtime base URL of this rollout: chat completions at endpoint + "/v1")';
  const missing = stubbed.length
    ? ` Also, ${stubbed.join(', ')} ${stubbed.length === 1 ? 'is' : 'are'} not installed for this python and did nothing: install the agent's requirements or pass --python.`
    : '';
  const variable = found && /(?:environ\.get|getenv)\(\s*["']([^"']+)["']/.exec(found.text)?.[1];
  const keep = variable
    ? ` Or keep it and run with --endpoint-env ${variable} --concurrency 1: ${variable} then names the local runtime.`
    : '';
  return found
    ? `No model call arrived from the agent: it ignores the payload's endpoint. ${file}:${found.line} fixes the host (${found.text}); ${fix}.${keep}${missing}`
    : `No model call arrived from the agent: it ignores the payload's endpoint or never calls the model. In ${file}, ${fix}.${missing}`;
}

/** What to tell the user when model calls to the runtime's base URL could not be told apart between rollouts in flight. */
export function sharedEndpointAdvice(file: string, found: HardCodedEndpoint | undefined, refused: number): string {
  const where = found ? `${file}:${found.line} (${found.text})` : file;
  return `${refused} model call${refused === 1 ? '' : 's'} to the runtime's base URL could not be matched to a rollout: several rollouts were in flight and no X-Amzn-SageMaker-Trajectory-Id header named one (the SDK's wrap_model sends it). Play one rollout at a time (--concurrency 1), or change ${where} to read payload["metadata"]["endpoint"].`;
}
