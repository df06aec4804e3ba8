// Trace folders as syncing a run's trace artifacts gives them, for the benches: the real support run's two rollouts,
// each of N copies with its own ids, ticket, reward and actions.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const ACTIONS = ['check_outage', 'restart_router', 'inspect_router_lights', 'check_account_config', 'apply_config_fix', 'escalate'];

interface Span {
  name: string;
  context: { trace_id: string; span_id: string };
  parent_id: string | null;
  attributes: Record<string, string>;
}

/** The training prompts of the real run (one quoted CSV column). */
function prompts(): string[] {
  const csv = readFileSync(path.join(root, 'test/fixtures/real-run/data/training_prompts.csv'), 'utf8');
  return csv
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((line) => line.replace(/^"|"$/g, '').replace(/""/g, '"'));
}

/** `id`: `<id>/traces.json` (the real support run's shape); `artifacts`: `tr-<id>/artifacts/traces.json` (an S3 sync of MLflow's artifact root). */
export type FolderLayout = 'id' | 'artifacts';

/** `count` folders of one `traces.json` each, in `layout`; gives the bytes written. */
export function writeFolders(dir: string, count: number, layout: FolderLayout = 'id'): number {
  const fixtures = ['support_traces.rollout1.raw.json', 'support_traces.rollout2.raw.json'].map(
    (f) => JSON.parse(readFileSync(path.join(root, 'test/fixtures/real-run/traces', f), 'utf8')) as { spans: Span[] },
  );
  const tickets = prompts();
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const hex = i.toString(16).padStart(12, '0');
    const traceId = `2207cd19-0073-47c7-8487-${hex}`;
    // GRPO: eight rollouts of each ticket per step.
    const ticket = tickets[Math.floor(i / 8) % tickets.length];
    const spans = fixtures[i % 2].spans.map((s, k) => {
      const attributes = { ...s.attributes };
      if (s.name === 'trajectory') {
        const inputs = JSON.parse(attributes['mlflow.spanInputs']) as { prompt: string };
        const setting = inputs.prompt.slice(inputs.prompt.indexOf('\n\n'));
        attributes['mlflow.spanInputs'] = JSON.stringify({ prompt: `${ticket}${setting}` });
        attributes.reward = (((i * 7) % 5) / 4).toFixed(2);
      }
      if (s.name === 'take_support_action')
        attributes['mlflow.spanInputs'] = JSON.stringify({ arguments: JSON.stringify({ action: ACTIONS[(i + k) % ACTIONS.length] }) });
      const id = (n: string | null) => (n ? `${n.slice(0, 24)}${hex}` : null);
      return { ...s, context: { trace_id: traceId, span_id: id(s.context.span_id) }, parent_id: id(s.parent_id), attributes };
    });
    const id = `tr-${traceId.replace(/-/g, '')}`;
    const folder = layout === 'id' ? path.join(dir, id) : path.join(dir, id, 'artifacts');
    mkdirSync(folder, { recursive: true });
    const text = JSON.stringify({ spans }, null, 2);
    writeFileSync(path.join(folder, 'traces.json'), text);
    bytes += text.length;
  }
  return bytes;
}
