import { validateText, type DatasetReport, type RunOptions } from '../../../../src/core/dataset';

/** A Wordle-convention row as the service expects it: the task JSON serialized into the prompt column. */
export function wordleRow(answer: string, id: string, prompt = 'Guess the 5-letter word'): string {
  return JSON.stringify({ prompt: JSON.stringify({ prompt, answer, id }) });
}

export function jsonl(lines: string[]): string {
  return lines.join('\n') + '\n';
}

export async function check(text: string, options: Partial<RunOptions> = {}): Promise<DatasetReport> {
  return validateText(text, { format: 'jsonl', ...options });
}

/** Each finding as "line:column code", the form the assertions compare. */
export function where(report: DatasetReport): string[] {
  return report.findings.map((f) => `${f.span.start.line}:${f.span.start.column} ${f.code}`);
}

export function codes(report: DatasetReport): string[] {
  return report.findings.map((f) => f.code);
}
