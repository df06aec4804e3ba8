import * as vscode from 'vscode';
import { pricingFromSetting, type PricingTable } from '../core/jobs/pricing';
import { settingValue, type SettingKey, type SettingValue } from '../core/settings';

/** The one place that reads `mtrl.*` settings: the value for `scope` (a file or folder for resource settings), defaulted and held in range. */
export function setting<K extends SettingKey>(key: K, scope?: vscode.ConfigurationScope): SettingValue<K> {
  return settingValue(key, vscode.workspace.getConfiguration('mtrl', scope).get(key));
}

/** A setting of VS Code itself (e.g. `workbench.welcomePage` `walkthroughs.openOnInstall`), through the same door. */
export function vscodeSetting<T>(section: string, key: string, fallback: T): T {
  return vscode.workspace.getConfiguration(section).get<T>(key, fallback);
}

/** Writes a setting where the user keeps it: the workspace when it is set there, else the user settings. */
export async function writeSetting<K extends SettingKey>(key: K, value: SettingValue<K> | undefined): Promise<void> {
  const config = vscode.workspace.getConfiguration('mtrl');
  const target =
    config.inspect(key)?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await config.update(key, value, target);
}

/** Typed settings on the services container: values, change events (settings apply without reload) and the pricing table read once. */
export class Settings implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.ConfigurationChangeEvent>();
  private readonly subscription = vscode.workspace.onDidChangeConfiguration((e) => {
    if (!e.affectsConfiguration('mtrl')) return;
    if (e.affectsConfiguration('mtrl.pricing')) this.pricingTable = undefined;
    this.changed.fire(e);
  });
  private pricingTable: PricingTable | undefined;

  constructor(private readonly output: vscode.LogOutputChannel) {}

  get<K extends SettingKey>(key: K, scope?: vscode.ConfigurationScope): SettingValue<K> {
    return setting(key, scope);
  }

  /** Calls `listener` after any of `keys` (or a section such as 'aws') changed; it can ask which (`changed('reward.codeLens')`). */
  onDidChange(
    keys: (SettingKey | 'aws' | 'datasets' | 'health' | 'launch' | 'lint' | 'python' | 'replay' | 'reward' | 'smoke')[],
    listener: (changed: (key: SettingKey) => boolean) => void,
  ): vscode.Disposable {
    return this.changed.event(
      (e) => keys.some((k) => e.affectsConfiguration(`mtrl.${k}`)) && listener((key) => e.affectsConfiguration(`mtrl.${key}`)),
    );
  }

  /** `mtrl.pricing` over the built-in prices; each problem with the setting is reported once per change, as a warning. */
  pricing(): PricingTable {
    if (this.pricingTable) return this.pricingTable;
    const { table, problems } = pricingFromSetting(setting('pricing'));
    for (const problem of problems) this.output.warn(problem);
    if (problems.length) void vscode.window.showWarningMessage(problems[0]);
    this.pricingTable = table;
    return table;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
