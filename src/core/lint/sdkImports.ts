import type { LintFinding, TextRange } from './findings';
import { LineStarts } from '../text/lines';

// Pitfalls in how an agent uses the SDK's `sagemaker.train.rft` package, read from the source text: both lint engines add them.

const RFT_IMPORT = /from\s+sagemaker\.train\.rft\s+import\s+(\([^)]*\)|[^\n]*)/g;
/** `rft_handler` as its own name (not the tail of `sagemaker_rft_handler`), and its `as` alias if any. */
const WRONG_NAME = /(?<![\w.])rft_handler\b(\s+as\s+\w+)?/g;
/** What the SDK's feedback client signs with when it has no region (`RolloutMetadata.region`'s default). */
export const SDK_FALLBACK_REGION = 'us-west-2';

function rangeAt(starts: LineStarts, from: number, to: number): TextRange {
  const at = (offset: number) => {
    const { line, start } = starts.locate(offset);
    return { line, character: offset - start };
  };
  return { start: at(from), end: at(to) };
}

/** `from sagemaker.train.rft import rft_handler` (the decorator docstring's example): the package exports only `sagemaker_rft_handler`. */
function wrongHandlerName(text: string, starts: LineStarts): LintFinding[] {
  const out: LintFinding[] = [];
  for (const imported of text.matchAll(RFT_IMPORT)) {
    const namesAt = imported.index + imported[0].length - imported[1].length;
    for (const name of imported[1].matchAll(WRONG_NAME)) {
      const from = namesAt + name.index;
      const range = rangeAt(starts, from, from + 'rft_handler'.length);
      // Keeping the old name as an alias leaves every `@rft_handler` working.
      const newText = name[1] ? 'sagemaker_rft_handler' : 'sagemaker_rft_handler as rft_handler';
      out.push({
        rule: 'rft-handler-import',
        severity: 'error',
        message:
          "`sagemaker.train.rft` has no `rft_handler` (the decorator docstring's example is wrong): the agent fails with ImportError at deploy. Import `sagemaker_rft_handler`.",
        range,
        fix: { title: `Import ${newText}`, edits: [{ range, newText }] },
      });
    }
  }
  return out;
}

/**
 * A rollout server that builds the SDK's feedback client or headers itself (not the AgentCore decorator, whose requests
 * carry the service's metadata) and never names a region: the SDK then signs for us-west-2.
 */
function regionFallback(text: string, starts: LineStarts): LintFinding[] {
  const first = /\b(?:RolloutFeedbackClient|RolloutMetadata|set_rollout_context|make_inference_headers)\s*\(/.exec(text);
  if (!first || /AWS_REGION|\bregion\b/.test(text)) return [];
  const lineEnd = text.indexOf('\n', first.index);
  return [
    {
      rule: 'region-fallback',
      severity: 'warning',
      message: `This rollout server reports through the SDK but never names a region: when a rollout's metadata has no \`region\` and AWS_REGION is unset, the SDK signs CompleteRollout and UpdateReward for ${SDK_FALLBACK_REGION} (its RolloutMetadata default), and a job elsewhere never gets its rewards. Set AWS_REGION in the agent's environment, or pass metadata.region on.`,
      range: rangeAt(starts, first.index, lineEnd < 0 ? text.length : lineEnd),
    },
  ];
}

/** Both SDK-use findings of a source. */
export function lintSdkImports(text: string): LintFinding[] {
  const starts = new LineStarts(text);
  return [...wrongHandlerName(text, starts), ...regionFallback(text, starts)];
}

/** Whether a Python file is an MTRL agent worth linting: it uses the SDK's decorator or imports its rollout package. */
export function usesRftHandler(text: string): boolean {
  return /\bsagemaker_rft_handler\b|\bsagemaker\.train\.rft\b/.test(text);
}
