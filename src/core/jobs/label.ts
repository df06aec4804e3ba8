import { shortenAtWords } from '../text/shorten';

/** Characters of a job name in its row: the rest of a ~300 px sidebar is left to the description. */
export const JOB_LABEL_CHARS = 16;

/** What names a job better than its name, when the job says: its MLflow run name, its role in an SDK evaluation pipeline. */
interface LabelHints {
  runName?: string;
  pipelineRole?: string;
}

/** The SDK's job names: `<model id>-mtrl-<UTC yyyymmddHHMMSS>`. */
const SDK_NAME = /-mtrl-(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/;

/** The part of `name` that tells it from the most alike sibling: the prefix they share, cut at a `-`, `_` or `.`. */
function distinctPart(name: string, siblings: readonly string[]): { rest: string; cut: boolean } {
  let shared = 0;
  for (const other of siblings) {
    if (other === name) continue;
    let i = 0;
    while (i < name.length && i < other.length && other[i] === name[i]) i++;
    shared = Math.max(shared, i);
  }
  // A name that another one starts with keeps its whole self: nothing in it tells it apart.
  const cut = shared > 0 && shared < name.length ? Math.max(...['-', '_', '.'].map((c) => name.lastIndexOf(c, shared - 1))) + 1 : 0;
  return { rest: name.slice(cut), cut: cut > 0 };
}

/**
 * A job's row label in the user's words: the MLflow run name when set, else the pipeline role (*base*, *fine-tuned*),
 * else an SDK-made name as `mtrl 2026-10-02 04:05`, else the part of the name that tells it from the most alike job
 * beside it (`…lr-sweep` beside `wordle-gptoss20b-grpo-100steps`). Past JOB_LABEL_CHARS it is cut between whole
 * words, never inside one. The whole name stays in the tooltip and the accessible name.
 */
export function jobLabel(name: string, siblings: readonly string[], hints: LabelHints = {}): string {
  if (hints.runName?.trim()) return shortenAtWords(hints.runName.trim(), JOB_LABEL_CHARS);
  if (hints.pipelineRole) return hints.pipelineRole;
  const sdk = SDK_NAME.exec(name);
  if (sdk) return `mtrl ${sdk[1]}-${sdk[2]}-${sdk[3]} ${sdk[4]}:${sdk[5]}`;
  const { rest, cut } = distinctPart(name, siblings);
  return cut ? `…${shortenAtWords(rest, JOB_LABEL_CHARS - 1)}` : shortenAtWords(rest, JOB_LABEL_CHARS);
}
