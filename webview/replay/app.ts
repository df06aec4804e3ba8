import { ADVANTAGE_FORMULA, type GroupRow, type RolloutFilter } from '../../src/core/rollouts';
import type { BoardSettings, BoardState, BoardView, InitialState, LoadStatus } from '../../src/shared/protocol';
import { ActionTableView } from './actions';
import { markFirstDifference } from './compare';
import { h, icon, idText, replace } from './dom';
import { FilterBar } from './filters';
import { GroupList } from './groups';
import type { BoardConnection } from './host';
import { RolloutPlayer } from './player';
import { RolloutTable } from './rollouts';
import { StepPicker, type StepRange } from './steps';
import { renderSummary } from './summary';
import { FindingsView } from './findings';

/** The replay board: filters and summary on top, then groups → rollouts → the board (two boards when comparing). */
export class ReplayBoard {
  private readonly status = h('div', { class: 'status', attrs: { role: 'status', 'aria-live': 'polite' } });
  private readonly statusLine = h('span', { class: 'status-line' });
  private readonly summary = h('section', { class: 'summary', attrs: { 'aria-label': 'Summary' } });
  private readonly notices = h('div', { class: 'notices', attrs: { role: 'status' } });
  private readonly panes = h('main', { class: 'panes' });
  private readonly players = h('div', { class: 'players' });
  private readonly actions = new ActionTableView();
  private readonly findings: FindingsView;
  private readonly filters: FilterBar;
  private readonly stepPicker: StepPicker;
  private readonly groups: GroupList;
  private readonly table: RolloutTable;
  private readonly player: RolloutPlayer;
  private readonly comparePlayer: RolloutPlayer;
  private board: BoardState;
  private current: LoadStatus;
  private groupLabel?: string;

  constructor(
    root: HTMLElement,
    private readonly initial: InitialState,
    private readonly host: BoardConnection,
  ) {
    this.board = host.restoredState()?.board ?? initial.board ?? { filter: {} };
    this.current = initial.status;
    this.filters = new FilterBar((filter) => this.filterChanged(filter));
    this.filters.set(this.board.filter);
    this.stepPicker = new StepPicker((range) => this.stepsPicked(range));
    this.findings = new FindingsView(host.channel, (finding) => this.filterChanged({ ...this.board.filter, finding }));
    this.groups = new GroupList(
      host.channel,
      (row) => void this.selectGroup(row),
      () => this.report(),
    );
    this.table = new RolloutTable(
      (index) => void this.selectRollout(index),
      (index) => void this.compareWith(index),
      (columns) => {
        this.board = { ...this.board, columns };
        this.persist();
      },
    );
    this.table.columns = this.board.columns ?? [];
    this.player = new RolloutPlayer((turn) => this.turnChanged(turn));
    this.comparePlayer = new RolloutPlayer(() => undefined);
    this.players.appendChild(this.player.element);
    replace(this.panes, this.groups.element, this.table.element, this.players);
    replace(
      root,
      h(
        'div',
        { class: 'app' },
        h(
          'header',
          { class: 'toolbar' },
          h('h1', {}, icon('history'), ' ', idText(initial.source.label, 60)),
          this.statusLine,
          this.filters.element,
        ),
        this.notices,
        this.stepPicker.element,
        this.findings.element,
        this.summary,
        this.actions.element,
        this.status,
        this.panes,
      ),
    );
    this.groups.element.addEventListener('scroll', () => this.persist());
    document.addEventListener('keydown', (e) => this.key(e));
    host.channel.on('settings', (settings) => this.applySettings(settings));
    host.channel.on('status', (status) => this.statusChanged(status));
    host.channel.on('showSteps', (range) => this.stepsPicked(range));
    this.applySettings(initial.settings);
    this.showStatus(initial.status);
    host.channel.ready();
  }

  private statusChanged(status: LoadStatus): void {
    this.showStatus(status);
    if (status.state === 'ready') void this.refresh().catch((error: Error) => this.showStatus({ state: 'error', message: error.message }));
  }

  private applySettings(settings: BoardSettings): void {
    document.body.classList.toggle('color-blind', settings.colorBlind);
  }

  private showStatus(status: LoadStatus): void {
    this.current = status;
    const ready = status.state === 'ready';
    this.panes.hidden = !ready;
    this.summary.hidden = !ready;
    this.actions.element.hidden = !ready;
    this.stepPicker.element.hidden = !ready;
    this.status.hidden = ready;
    // What the reader left out stays in view, with the rollouts or with the empty state.
    const notices = status.state === 'ready' || status.state === 'empty' ? (status.notices ?? []) : [];
    this.notices.hidden = !notices.length;
    replace(this.notices, ...notices.map((n) => h('p', { class: 'notice' }, icon('warning'), ' ', n)));
    replace(
      this.statusLine,
      ready ? `${status.rollouts.toLocaleString()} rollouts` : '',
      ready && status.reading
        ? h(
            'span',
            { class: 'reading', attrs: { title: 'The rest of the rollouts are still being read: the board updates as they arrive' } },
            ' ',
            icon('loading', 'Reading'),
            ' reading more…',
          )
        : null,
      ready && status.following
        ? h(
            'span',
            { class: 'following', attrs: { title: 'Following the job: new rollouts are added as they are logged' } },
            ' ',
            icon('sync'),
            ' following',
          )
        : null,
    );
    if (status.state === 'loading') {
      const counts =
        status.lines !== undefined ? ` (${status.lines.toLocaleString()} lines, ${(status.rollouts ?? 0).toLocaleString()} rollouts)` : '';
      replace(this.status, h('vscode-progress-ring', { attrs: { 'aria-label': 'Loading' } }), h('p', {}, status.message, counts));
    } else if (status.state === 'error') {
      replace(
        this.status,
        h('p', { class: 'error' }, icon('error'), ' ', status.message),
        h('vscode-button', { attrs: { icon: 'refresh' }, on: { click: () => this.host.channel.notify('retry') } }, 'Try again'),
      );
    } else if (status.state === 'empty') {
      replace(this.status, h('p', {}, icon('info'), ' ', status.message));
    }
    this.report();
  }

  private async refresh(): Promise<void> {
    const axis = await this.host.channel.request('steps', {});
    // A job opens at its latest step (the newest policy) until the user picks steps.
    const latest = axis.steps.at(-1)?.step;
    if (!this.board.stepsPicked && this.initial.source.kind === 'job' && latest !== undefined)
      this.board = { ...this.board, filter: { ...this.board.filter, steps: { from: latest, to: latest } } };
    this.stepPicker.show(axis, this.board.filter.steps);
    const filter = this.board.filter;
    await this.groups.reset(filter);
    await this.findings.show(filter.finding);
    renderSummary(this.summary, await this.host.channel.request('summary', { filter }));
    this.actions.show(await this.host.channel.request('actions', { filter }));
    if (!this.groups.total) {
      this.table.show([], '');
      this.player.show(undefined);
      replace(
        this.table.element,
        h(
          'div',
          { class: 'state-message' },
          'No rollout matches the filters. ',
          h('vscode-button', { attrs: { secondary: true }, on: { click: () => this.filters.set({}, true) } }, 'Clear filters'),
        ),
      );
    } else {
      if (this.board.scrollTop) this.groups.element.scrollTop = this.board.scrollTop;
      // Follow mode refreshes while a game may be playing: leave the board alone then.
      if (!this.player.playing) this.groups.selectIndex(this.board.group);
    }
    this.report();
  }

  private filterChanged(filter: RolloutFilter): void {
    this.board = { ...this.board, filter: { ...filter, steps: this.board.filter.steps } };
    this.persist();
    if (this.current.state === 'ready') void this.refresh();
  }

  private stepsPicked(range: StepRange): void {
    this.board = { ...this.board, stepsPicked: true, filter: { ...this.board.filter, steps: range } };
    if (!range) delete this.board.filter.steps;
    this.persist();
    if (this.current.state === 'ready') void this.refresh();
  }

  private async selectGroup(row: GroupRow): Promise<void> {
    const group = row.index;
    const label = `${row.label} · ${row.step === undefined ? 'step unknown' : `step ${row.step}`}`;
    const restoring = this.board.group === group ? this.board.rollout : undefined;
    this.board = { ...this.board, group };
    this.groupLabel = label;
    const rows = await this.host.channel.request('rollouts', { group, filter: this.board.filter });
    this.table.selected = rows.find((r) => r.index === restoring)?.index ?? rows[0]?.index;
    this.table.compare = undefined;
    const note =
      row.step === undefined
        ? 'Step unknown: this group pools every step of the task, so these advantages are not the ones the policy saw.'
        : `GRPO group: ${row.n} rollouts of this task in step ${row.step}; ${ADVANTAGE_FORMULA}.`;
    this.table.show(rows, `${label}: ${rows.length} rollout${rows.length === 1 ? '' : 's'}`, note);
    await this.compareWith(undefined);
    if (this.table.selected !== undefined)
      await this.selectRollout(this.table.selected, restoring === this.table.selected ? this.board.turn : undefined);
    else this.player.show(undefined);
  }

  /** Replays a rollout from a turn (restored), else where its renderer opens. */
  private async selectRollout(index: number, turn?: number): Promise<void> {
    const detail = await this.host.channel.request('rollout', { index });
    this.player.show(detail ?? undefined, turn);
    this.board = { ...this.board, rollout: index, turn: this.player.currentTurn };
    this.markDifference();
    this.persist();
    this.report();
  }

  private async compareWith(index: number | undefined): Promise<void> {
    this.board = { ...this.board, compare: index };
    if (index === undefined) {
      this.comparePlayer.show(undefined);
      this.comparePlayer.element.remove();
      this.players.classList.remove('comparing');
      this.player.markDifference(undefined);
      return;
    }
    this.comparePlayer.show((await this.host.channel.request('rollout', { index })) ?? undefined);
    this.players.appendChild(this.comparePlayer.element);
    this.players.classList.add('comparing');
    this.markDifference();
  }

  private markDifference(): void {
    markFirstDifference(this.player, this.players.classList.contains('comparing') ? this.comparePlayer : undefined);
  }

  private turnChanged(turn: number): void {
    this.board = { ...this.board, turn };
    this.persist();
    this.report();
  }

  /** Space plays or pauses, ←/→ step, Home/End jump; both boards move together when comparing. Fields, lists and the action table keep their keys. */
  private key(e: KeyboardEvent): void {
    const target = e.target as HTMLElement | null;
    if (
      target?.closest(
        'vscode-textfield, vscode-single-select, vscode-multi-select, vscode-button, vscode-checkbox, input, select, button, summary, .group-list, .actions',
      )
    )
      return;
    const boards = this.players.classList.contains('comparing') ? [this.player, this.comparePlayer] : [this.player];
    if (e.key === ' ') boards.forEach((b) => b.toggle());
    else if (e.key === 'ArrowRight') boards.forEach((b) => b.step(1));
    else if (e.key === 'ArrowLeft') boards.forEach((b) => b.step(-1));
    else if (e.key === 'Home') boards.forEach((b) => b.step(-Infinity));
    else if (e.key === 'End') boards.forEach((b) => b.step(Infinity));
    else return;
    e.preventDefault();
  }

  private persist(): void {
    this.board = { ...this.board, scrollTop: this.groups.element.scrollTop };
    const state = { source: this.initial.source, board: this.board };
    this.host.saveState(state);
    this.host.channel.notify('state', state);
  }

  private report(): void {
    const first = this.groups?.row(0);
    const view: BoardView = {
      // Still streaming counts as loading: what the board shows is not yet the whole source.
      status: this.current.state === 'ready' && this.current.reading ? 'loading' : this.current.state,
      rollouts: this.current.state === 'ready' ? this.current.rollouts : undefined,
      following: this.current.state === 'ready' ? this.current.following : undefined,
      groups: this.groups?.total ?? 0,
      firstGroup: first?.label,
      selectedGroup: this.groupLabel,
      rollout: this.player?.trajectoryId,
      turn: this.player?.currentTurn,
      notices: [...this.notices.querySelectorAll('.notice')].map((n) => n.textContent?.trim() ?? ''),
    };
    this.host.channel.notify('view', view);
  }
}
