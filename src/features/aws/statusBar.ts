import * as vscode from 'vscode';
import { isLoopbackEndpoint, type AwsSettings } from '../../aws/clients';

/** "MTRL: <profile> @ <region>" in the status bar; "emulator" when the endpoint is loopback. */
export class AwsStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('mtrl.aws', vscode.StatusBarAlignment.Left, 0);

  constructor(private readonly settings: () => AwsSettings) {
    this.item.name = 'MTRL AWS connection';
    this.item.command = 'mtrl.chooseProfile';
    this.update();
    this.item.show();
  }

  update(): void {
    const text = statusText(this.settings());
    this.item.text = `$(cloud) ${text}`;
    this.item.accessibilityInformation = { label: `${text}. Activate to choose the AWS profile.`, role: 'button' };
    const s = this.settings();
    const tooltip = new vscode.MarkdownString(
      [
        `**${text}**`,
        '',
        `Profile: ${s.profile ?? '(default credential chain)'}`,
        `Region: ${s.region}`,
        s.endpoint ? `Endpoint: ${s.endpoint}` : 'Endpoint: AWS',
        '',
        '[Choose profile](command:mtrl.chooseProfile) · [Choose region](command:mtrl.chooseRegion)',
      ].join('  \n'),
    );
    tooltip.isTrusted = { enabledCommands: ['mtrl.chooseProfile', 'mtrl.chooseRegion'] };
    this.item.tooltip = tooltip;
  }

  dispose(): void {
    this.item.dispose();
  }
}

function statusText(s: AwsSettings): string {
  const who = isLoopbackEndpoint(s.endpoint) && !s.profile ? 'emulator' : (s.profile ?? 'default');
  return `MTRL: ${who} @ ${s.region}`;
}
