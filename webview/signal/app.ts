import { signalView, type Bar, type SignalView as ViewModel } from '../../src/core/signal/reportView';
import type { InitialSignal, PersistedSignal, SignalProtocol, SignalState } from '../../src/shared/signal';
import type { PageConnection } from '../../src/webview-kit/webview';
import { h, icon, replace } from '../replay/dom';

export type SignalConnection = PageConnection<SignalProtocol, PersistedSignal>;

const LEVEL_ICON = { good: 'pass', warn: 'warning', bad: 'error' } as const;

/** One histogram: a bar per bin with its count above and its label below; the whole chart is one image to a screen reader. */
function histogram(caption: string, bars: Bar[], className: string, note?: string): HTMLElement {
  const summary = `${caption}: ${bars.map((b) => b.title).join('; ')}.`;
  const slots = bars.map((b) => {
    const bar = h('div', { class: b.extreme ? 'bar extreme' : 'bar' });
    // Through the CSSOM: the page's CSP admits no style attribute.
    bar.style.setProperty('height', `${Math.max(b.count ? 2 : 0, Math.round(b.height * 100))}%`);
    return h(
      'div',
      { class: 'slot', attrs: { title: b.title } },
      h('span', { class: 'count' }, b.count),
      h('div', { class: 'track' }, bar),
      h('span', { class: 'label' }, b.label),
    );
  });
  return h(
    'figure',
    { class: `chart ${className}` },
    h('figcaption', {}, caption),
    h('div', { class: 'bars', attrs: { role: 'img', 'aria-label': summary } }, ...slots),
    note ? h('p', { class: 'note' }, note) : null,
  );
}

/** The learning-signal view: a toolbar, then the report (or a sentence saying why there is none). */
export class SignalView {
  private readonly toolbar = h('header', { class: 'toolbar' });
  private readonly main = h('main', { class: 'report' });
  private state: SignalState;

  constructor(
    root: HTMLElement,
    private readonly initial: InitialSignal,
    private readonly host: SignalConnection,
  ) {
    this.state = initial;
    replace(root, this.toolbar, this.main);
    host.channel.on('state', (next) => this.render(next));
    this.render(initial);
    host.channel.ready();
  }

  private render(state: SignalState): void {
    this.state = state;
    this.host.saveState({ source: this.initial.source });
    const view = signalView(state.shown, state.loading);
    this.renderToolbar(view);
    this.renderReport(view);
    const drawn = {
      kind: view.kind,
      headline: view.kind === 'report' ? view.headline : undefined,
      message: view.kind === 'report' ? undefined : view.message,
      rewardBars: view.kind === 'report' ? view.rewards.length : 0,
      difficultyBars: view.kind === 'report' ? view.difficulty.length : 0,
    };
    if (!state.loading) this.host.channel.notify('drawn', drawn);
  }

  private renderToolbar(view: ViewModel): void {
    const action = (label: string, codicon: string, method: 'openRollouts' | 'tryReward' | 'refresh', title: string, enabled = true) =>
      h(
        'vscode-button',
        {
          class: `action-${method}`,
          attrs: { secondary: method === 'refresh', disabled: !enabled, title },
          on: { click: () => this.host.channel.notify(method) },
        },
        icon(codicon),
        ` ${label}`,
      );
    replace(
      this.toolbar,
      h('h1', {}, icon('pulse'), ' Learning signal'),
      this.state.loading ? h('vscode-progress-ring', { attrs: { 'aria-label': 'Reading the rollouts' } }) : null,
      h(
        'div',
        { class: 'actions' },
        action('Open Rollouts on the Board', 'list-tree', 'openRollouts', 'Replay these rollouts, task by task', view.hasRollouts),
        action(
          'Try a Changed Reward',
          'beaker',
          'tryReward',
          'Re-score these rollouts with your reward as it is now (a reward scenario file)',
          view.hasRollouts,
        ),
        action('Refresh', 'refresh', 'refresh', 'Read the rollouts (or the kept check) again'),
      ),
    );
  }

  private renderReport(view: ViewModel): void {
    const source = h('p', { class: 'source' }, 'From ', h('strong', {}, view.title));
    if (view.kind !== 'report') {
      const iconName = view.kind === 'failed' ? 'error' : view.kind === 'empty' ? 'info' : 'loading';
      const role = view.kind === 'failed' ? 'alert' : 'status';
      replace(this.main, source, h('p', { class: `message ${view.kind}`, attrs: { role } }, icon(iconName), ' ', view.message));
      return;
    }
    if (view.when) source.append(` · checked ${new Date(view.when).toLocaleString()}`);
    const verdict = h(
      'section',
      { class: `verdict ${view.level}`, attrs: { 'aria-label': 'Zero-advantage share' } },
      h('h2', {}, icon(LEVEL_ICON[view.level]), ' ', view.headline),
      ...view.meaning.map((line) => h('p', {}, line)),
    );
    const figures = h(
      'dl',
      { class: 'figures' },
      ...view.figures.map((f) =>
        h('div', { class: 'figure' }, h('dt', {}, f.label), h('dd', {}, f.value), f.hint ? h('dd', { class: 'hint' }, f.hint) : null),
      ),
    );
    const charts = h(
      'div',
      { class: 'charts' },
      histogram('Reward distribution', view.rewards, 'rewards'),
      histogram('Task difficulty', view.difficulty, 'difficulty', view.difficultyNote),
    );
    const groupSizes = view.atGroupSize.length
      ? h(
          'section',
          { class: 'group-sizes' },
          h('h2', {}, 'Estimated zero-advantage share at other group sizes'),
          h(
            'table',
            {},
            h('tr', {}, ...view.atGroupSize.map((g) => h('th', { attrs: { scope: 'col' } }, g.label))),
            h('tr', {}, ...view.atGroupSize.map((g) => h('td', {}, g.value))),
          ),
        )
      : null;
    const advice = h(
      'section',
      { class: 'recommendations' },
      h('h2', {}, 'What to change'),
      h('ul', {}, ...view.recommendations.map((r) => h('li', {}, r))),
    );
    replace(this.main, source, verdict, figures, charts, groupSizes, advice);
  }
}
