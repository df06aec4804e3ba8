// The SDK's Strands adapter (`wrap_model`) names the rollout of every model call in an X-RFT-Metadata header; its
// exact encoding is not published, so a JSON object and `key=value` pairs are both read.
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
