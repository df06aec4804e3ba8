import { REPLAY_VIEW, type BoardState } from '../../../../src/shared/protocol';
import { AppServer } from '../browser';

/** The rollout board's app server, its pages reading log lines in the page. */
export class BoardServer {
  private constructor(private readonly app: AppServer) {}

  static async start(): Promise<BoardServer> {
    return new BoardServer(await AppServer.start(REPLAY_VIEW));
  }

  /** Serves a board page reading these log lines in the page; returns its URL. A job source opens at its latest step unless `board` says otherwise. */
  page(name: string, lines: string[], colorBlind = false, kind: 'fixture' | 'job' = 'fixture', board?: BoardState): string {
    return this.app.page(name, {
      source: kind === 'job' ? { kind, jobName: name, category: 'AgentRFT', label: name } : { kind, label: name },
      status: { state: 'loading', message: 'Reading rollouts…' },
      settings: { colorBlind },
      board,
      fixture: lines,
    }).url;
  }

  close(): Promise<void> {
    return this.app.close();
  }
}
