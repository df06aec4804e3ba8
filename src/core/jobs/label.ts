import { distinctPart } from '../text/distinct';
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
