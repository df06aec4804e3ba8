import type { RolloutMarker } from '../rollouts/marker';
import { groupRollouts } from '../rollouts/groups';
import type { Transcript } from '../transcript/model';
import { scanRollout } from './marks';
import { SCAN_DEFAULTS, thresholdOf, type ScanSettings } from './settings';
import { onsetOf, trendText } from './steps';
import type { ScanExample, ScanFinding, ScanMark, ScanResult, ScanStep } from './types';

/** The first marked rollout, as plain data (no undefined fields). */
function exampleOf(id: string, mark: ScanMark): ScanExample {
  const example: ScanExample = { id };
  if (mark.turn !== undefined) example.turn = mark.turn;
  if (mark.evidence) example.evidence = mark.evidence;
  return example;
}

/** What the scan keeps of each rollout: what grouping and the step trend read (its turns are let go). */
interface Scanned {
  id: string;
  /** Grouping reads these too; the scan has no label, pack or verdict to give it. */
  label: '';
  pack: undefined;
  solved: false;
  groupKey: string;
  step: number | undefined;
  reward: number | undefined;
  status: Transcript['status'];
}

interface KindMarks {
  indices: number[];
  example: ScanExample;
}

/**
 * A scan over rollouts as they are read: each is scanned once on arrival and only its few facts are kept, so a
 * scan's memory grows by a small object per rollout however long the transcripts.
 */
export class RolloutScan implements RolloutMarker {
  private readonly rollouts: Scanned[] = [];
  private readonly byKind = new Map<string, KindMarks>();
  // The board asks again on each refresh: the result stands until another rollout arrives.
  private last?: ScanResult;

  constructor(private readonly settings: ScanSettings = SCAN_DEFAULTS) {}

  /** Scans one rollout and counts its marks, with `extra` found elsewhere (a user's Python scanner); its marks are returned. */
  add(t: Transcript, extra: readonly ScanMark[] = []): ScanMark[] {
    const marks = extra.length ? [...scanRollout(t, this.settings), ...extra] : scanRollout(t, this.settings);
    const index = this.rollouts.length;
    this.last = undefined;
    this.rollouts.push({
      id: t.id,
      label: '',
      pack: undefined,
      solved: false,
      groupKey: t.groupKey,
      step: t.step,
      reward: t.reward,
      status: t.status,
    });
    for (const mark of marks) {
      let kind = this.byKind.get(mark.kind);
      if (!kind) this.byKind.set(mark.kind, (kind = { indices: [], example: exampleOf(t.id, mark) }));
      // One rollout counts once per kind, however many scanners saw it.
      if (kind.indices[kind.indices.length - 1] !== index) kind.indices.push(index);
    }
    return marks;
  }

  /** Whether the rollout added at `index` is marked with `kind` (its indices are in order: a binary search). */
  has(kind: string, index: number): boolean {
    const indices = this.byKind.get(kind)?.indices;
    if (!indices) return false;
    let lo = 0;
    let hi = indices.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (indices[mid] === index) return true;
      if (indices[mid] < index) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  kindsOf(index: number): string[] {
    return [...this.byKind.keys()].filter((kind) => this.has(kind, index));
  }

  /** Forgets every rollout: the source is read again. */
  clear(): void {
    this.rollouts.length = 0;
    this.byKind.clear();
    this.last = undefined;
  }

  result(): ScanResult {
    return (this.last ??= this.compute());
  }

  private compute(): ScanResult {
    const all = this.rollouts;
    const { advantage } = groupRollouts(all);
    const perStep = new Map<number, number>();
    for (const r of all) if (r.step !== undefined) perStep.set(r.step, (perStep.get(r.step) ?? 0) + 1);
    const stepOrder = [...perStep.keys()].sort((a, b) => a - b);
    const findings: ScanFinding[] = [];
    for (const [kind, { indices, example }] of this.byKind) {
      const markedAt = new Map<number, number>();
      let sum = 0;
      let n = 0;
      for (const i of indices) {
        const step = all[i].step;
        if (step !== undefined) markedAt.set(step, (markedAt.get(step) ?? 0) + 1);
        if (Number.isFinite(advantage[i])) {
          sum += advantage[i];
          n++;
        }
      }
      const steps: ScanStep[] = stepOrder.map((step) => {
        const rollouts = perStep.get(step)!;
        const marked = markedAt.get(step) ?? 0;
        return { step, rollouts, marked, share: marked / rollouts };
      });
      const share = indices.length / all.length;
      const threshold = thresholdOf(this.settings, kind);
      const began = onsetOf(steps);
      findings.push({
        kind,
        rollouts: indices.length,
        share,
        steps,
        ...(began !== undefined ? { began } : {}),
        trend: trendText(steps, began),
        meanAdvantage: n ? sum / n : null,
        ids: indices.map((i) => all[i].id),
        example,
        threshold,
        above: share > threshold,
      });
    }
    findings.sort((a, b) => Number(b.above) - Number(a.above) || b.rollouts - a.rollouts || a.kind.localeCompare(b.kind));
    return { scanned: all.length, findings };
  }
}

/** The scan of any array or iterable of transcripts (the CLI streams through RolloutScan instead). */
export function scanTranscripts(transcripts: Iterable<Transcript>, settings: ScanSettings = SCAN_DEFAULTS): ScanResult {
  const scan = new RolloutScan(settings);
  for (const t of transcripts) scan.add(t);
  return scan.result();
}
