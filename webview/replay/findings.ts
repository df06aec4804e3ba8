import type { ScanFinding, ScanResult } from '../../src/core/scan/types';
import { h, icon, replace } from './dom';
import type { BoardChannel } from './host';

const percent = (share: number) => `${(share * 100).toFixed(share < 0.1 ? 1 : 0)}%`;

/** The rollout scan's findings over every rollout read: a chip per kind with its count, share and trend; a click filters to it. */
export class FindingsView {
  readonly element = h('section', { class: 'findings', attrs: { 'aria-label': 'Findings' } });

  constructor(
    private readonly channel: BoardChannel,
    private readonly onPick: (kind: string | undefined) => void,
  ) {
    this.element.hidden = true;
  }

  /** Asks for the findings again and draws them, `picked` pressed. */
  async show(picked: string | undefined): Promise<void> {
    this.render(await this.channel.request('findings', {}), picked);
  }

  render(result: ScanResult, picked: string | undefined): void {
    this.element.hidden = !result.findings.length && !picked;
    const chip = (f: ScanFinding) =>
      h(
        'button',
        {
          class: `finding${f.above ? ' above' : ''}`,
          attrs: {
            'data-kind': f.kind,
            'aria-pressed': f.kind === picked ? 'true' : 'false',
            title: `${f.trend || 'steps unknown'}; mean advantage ${f.meanAdvantage === null ? '–' : f.meanAdvantage.toFixed(2)}; e.g. ${f.example.id}${f.example.evidence ? `: ${f.example.evidence}` : ''}`,
          },
          on: { click: () => this.onPick(f.kind === picked ? undefined : f.kind) },
        },
        f.above ? icon('warning') : null,
        ` ${f.kind} `,
        h('strong', {}, String(f.rollouts)),
        h('span', { class: 'muted' }, ` (${percent(f.share)})`),
      );
    replace(
      this.element,
      h('strong', {}, 'Findings'),
      ` in ${result.scanned.toLocaleString()} rollouts: `,
      ...result.findings.map(chip),
      picked ? h('button', { class: 'finding clear', on: { click: () => this.onPick(undefined) } }, 'show all') : null,
    );
  }
}
