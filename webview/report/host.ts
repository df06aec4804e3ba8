import type { ReportModel } from '../../src/core/report/model';
import { ReplayData } from '../../src/core/rollouts';
import { RolloutScan } from '../../src/core/scan/findings';
import { replayHandlers } from '../../src/shared/protocol';
import { connectPage } from '../../src/webview-kit/webview';
import type { BoardConnection } from '../replay/host';

/** The board's requests answered in the page from the report's rollouts: the same handlers the extension uses. */
export function connectReport(model: ReportModel): BoardConnection {
  return connectPage((host) => {
    // The in-page scan marks the carried rollouts, so a finding's chip filters them; its counts are the CLI's, of every rollout.
    const marker = new RolloutScan();
    const data = new ReplayData(model.rollouts, undefined, marker);
    host.serve(replayHandlers(data, { result: () => model.scan ?? { scanned: 0, findings: [] } }));
    // The board draws once told its rollouts are ready, as the extension tells it after reading them.
    host.onReady(() => host.notify('status', { state: 'ready', rollouts: data.size, following: false }));
  });
}
