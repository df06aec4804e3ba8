// An older X-RFT-Metadata header (named only in stale docstrings of the SDK's Strands adapter; the SDK now sends
// X-Amzn-SageMaker-Trajectory-Id) is still read: its encoding was never published, so JSON and `key=value` pairs both are.
const ROLLOUT_KEYS = ['rollout_id', 'rolloutId', 'trajectory_id', 'trajectoryId'];

/** The rollout id an X-RFT-Metadata header names, or undefined when it names none. */
export function rolloutOfRftMetadata(header: string | string[] | undefined): string | undefined {
  const text = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!text) return undefined;
  let fields: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') fields = parsed as Record<string, unknown>;
  } catch {
    fields = Object.fromEntries(text.split(/[;,&]/).map((pair) => pair.split('=').map((s) => s.trim())));
  }
  const id = ROLLOUT_KEYS.map((key) => fields[key]).find((v) => typeof v === 'string' && v !== '');
  return id as string | undefined;
}
