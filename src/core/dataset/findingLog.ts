import { escapeControls } from '../text/display';
import { SUMMARY_EXAMPLES, summaryFinding } from './summarized';
import { SEVERITY, type DatasetReport, type Finding, type FindingCode, type RelatedLocation, type Span } from './types';

/** A file's findings as they are reported: each code capped (the rest summarized) and the whole list capped. */
export class FindingLog {
  readonly findings: Finding[] = [];
  readonly omitted = { error: 0, warning: 0, info: 0 };
  readonly counts: Partial<Record<FindingCode, number>> = {};
  private readonly examples = new Map<FindingCode, number[]>();

  constructor(
    private readonly maxFindings: number,
    private readonly maxPerCode: number,
  ) {}

  /** Counts one finding of `code`; true when the code is past its cap, so the caller need not build the message. */
  summarized(code: FindingCode, row: number): boolean {
    const count = (this.counts[code] = (this.counts[code] ?? 0) + 1);
    if (count <= this.maxPerCode) return false;
    const examples = this.examples.get(code) ?? [];
    if (examples.length < SUMMARY_EXAMPLES) this.examples.set(code, [...examples, row]);
    return true;
  }

  /** Records a finding that is not about a parsed row: a syntax error, an unreadable file. */
  report(code: FindingCode, message: string, span: Span, row: number, related?: RelatedLocation[]): void {
    if (this.summarized(code, row)) return;
    this.keep(code, message, span, row, related);
  }

  keep(code: FindingCode, message: string, span: Span, row: number, related?: RelatedLocation[]): void {
    const severity = SEVERITY[code];
    if (this.findings.length >= this.maxFindings) {
      this.omitted[severity]++;
      return;
    }
    // Messages quote the file's text: a raw NUL or bidi override there would garble or spoof the message.
    message = escapeControls(message);
    const shown = related?.map((r) => ({ ...r, message: escapeControls(r.message) }));
    this.findings.push(shown ? { code, severity, message, span, row, related: shown } : { code, severity, message, span, row });
  }

  /** One summary finding per code past its cap, with the count and example rows. */
  summarize(format: DatasetReport['format']): void {
    for (const [code, rows] of this.examples) {
      const summary = summaryFinding(code, this.counts[code] ?? 0, this.maxPerCode, rows, format);
      this.keep(code, summary.message, summary.span, summary.row);
    }
  }

  /** Whether anything was summarized or left out. */
  get truncated(): boolean {
    return this.examples.size > 0 || this.omitted.error + this.omitted.warning + this.omitted.info > 0;
  }
}
