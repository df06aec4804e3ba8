import { componentsText, score } from '../../src/core/reward/scoreText';
import type { RewardScoresProtocol, RewardScoresState, ScoredScenarioView } from '../../src/shared/rewardScores';
import type { PageConnection } from '../../src/webview-kit/webview';
import { h, icon, replace } from '../replay/dom';
import { rendererFor } from '../replay/renderers';

export type RewardScoresConnection = PageConnection<RewardScoresProtocol, undefined>;

/** A scenario's bar: from the zero line, right for a positive score and left for a negative one, scaled to the largest. */
function bar(scenario: ScoredScenarioView, largest: number): HTMLElement {
  const track = h('div', { class: 'track' });
  if (scenario.reward !== undefined) {
    const part = h('div', { class: scenario.reward < 0 ? 'bar negative' : 'bar' });
    const width = largest ? (Math.abs(scenario.reward) / largest) * 50 : 0;
    // Through the CSSOM: the page's CSP admits no style attribute.
    part.style.setProperty('width', `${width}%`);
    part.style.setProperty(scenario.reward < 0 ? 'right' : 'left', '50%');
    track.append(part);
  }
  return track;
}

/** The scenario's transcript drawn whole by its environment's renderer (Wordle: tiles), the board's generic view otherwise. */
function transcript(scenario: ScoredScenarioView): HTMLElement {
  const renderer = rendererFor(scenario.transcript);
  const steps = renderer.steps?.(scenario.transcript) ?? scenario.transcript.turns.length;
  return h('div', { class: 'player' }, renderer.render(scenario.transcript, { shown: steps, opened: new Set() }));
}

/** The reward scores view: each scenario's bar (its transcript unfolds below it), then the expectations. */
export class RewardScoresView {
  private readonly toolbar = h('header', { class: 'toolbar' });
  private readonly main = h('main', { class: 'scores' });

  constructor(
    root: HTMLElement,
    initial: RewardScoresState,
    private readonly host: RewardScoresConnection,
  ) {
    replace(root, this.toolbar, this.main);
    host.channel.on('state', (next) => this.render(next));
    this.render(initial);
    host.channel.ready();
  }

  private render(state: RewardScoresState): void {
    const save = state.offered
      ? h(
          'vscode-button',
          {
            class: 'action-save',
            attrs: { title: 'Write these scenarios beside the reward, to edit them and their expectations' },
            on: { click: () => this.host.channel.notify('save') },
          },
          icon('save'),
          ' Save as Scenario File',
        )
      : null;
    replace(
      this.toolbar,
      h('h1', {}, state.offered ? `Scenarios of the environment for ${state.source}` : state.source),
      state.loading ? h('vscode-progress-ring', { attrs: { 'aria-label': 'Scoring' } }) : null,
      h('span', { class: 'actions' }, save),
    );
    if (state.failure) {
      replace(this.main, h('p', { class: 'message failed' }, icon('error'), ' ', state.failure));
      return;
    }
    const largest = Math.max(0, ...state.scenarios.map((s) => Math.abs(s.reward ?? 0)));
    const rows = state.scenarios.map((s) =>
      h(
        'details',
        { class: 'scenario', attrs: { 'data-scenario': s.name } },
        h(
          'summary',
          {},
          h('span', { class: 'name' }, s.name),
          bar(s, largest),
          h('span', { class: 'score' }, s.reward === undefined ? 'not scored' : score(s.reward)),
          h('span', { class: 'finished' }, s.finished === true ? 'finished' : s.finished === false ? 'unfinished' : ''),
          s.reward !== undefined && s.components ? h('span', { class: 'components' }, componentsText(s.reward, s.components)) : null,
        ),
        s.failure ? h('p', { class: 'message failed' }, icon('warning'), ' ', s.failure) : null,
        transcript(s),
      ),
    );
    const expectations = state.expectations.map((e) =>
      h(
        'li',
        { class: e.ok ? 'kept' : 'broken' },
        icon(e.ok ? 'pass' : 'error', e.ok ? 'kept' : 'broken'),
        ' ',
        h('code', {}, e.name),
        ': ',
        e.detail,
        e.also ? h('ul', { class: 'also' }, ...e.also.map((detail) => h('li', {}, detail))) : null,
      ),
    );
    const kept = state.expectations.filter((e) => e.ok).length;
    replace(
      this.main,
      state.reward ? h('p', { class: 'source' }, 'Scored by ', h('strong', {}, state.reward)) : null,
      h('section', { class: 'scenarios', attrs: { 'aria-label': 'Scenario scores' } }, ...rows),
      h('h2', {}, `Expectations ${kept}/${state.expectations.length} kept`),
      h('ul', { class: 'expectations' }, ...expectations),
      state.stubbed.length ? h('p', { class: 'note' }, `Not installed, replaced by stubs: ${state.stubbed.join(', ')}`) : null,
    );
  }
}
