import * as vscode from 'vscode';
import { awsConfigFiles, listProfiles } from '../../aws/profiles';
import { MTRL_REGIONS } from '../../core/jobs/regions';
import type { Services } from '../services';
import { writeAwsSetting } from './settings';

/** Regions where MTRL runs first, then other common ones. */
const REGIONS: { id: string; mtrl: boolean }[] = [
  ...MTRL_REGIONS.map((id) => ({ id, mtrl: true })),
  ...['us-east-2', 'us-west-1', 'eu-west-1', 'eu-central-1', 'ap-northeast-1', 'ap-southeast-2'].map((id) => ({ id, mtrl: false })),
];

const DEFAULT_CHAIN = '(default credential chain)';

export function registerAwsCommands(services: Services): void {
  services.context.subscriptions.push(
    vscode.commands.registerCommand('mtrl.chooseProfile', () => chooseProfile(services)),
    vscode.commands.registerCommand('mtrl.chooseRegion', () => chooseRegion(services)),
  );
}

async function chooseProfile(services: Services): Promise<void> {
  const current = services.aws.current.profile;
  const files = awsConfigFiles();
  const profiles = await listProfiles();
  const items: vscode.QuickPickItem[] = [
    {
      label: DEFAULT_CHAIN,
      description: current ? undefined : 'current',
      detail: 'Environment variables, then the default profile, SSO and instance roles',
    },
    ...profiles.map((name) => ({ label: name, description: name === current ? 'current' : undefined })),
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: 'MTRL: Choose AWS Profile',
    placeHolder: profiles.length ? 'Profile for MTRL calls' : `No profiles in ${files.config} or ${files.credentials}`,
  });
  if (!picked) return;
  const profile = picked.label === DEFAULT_CHAIN ? undefined : picked.label;
  await writeAwsSetting('profile', profile);
  services.output.info(`AWS profile: ${profile ?? DEFAULT_CHAIN}`);
}

async function chooseRegion(services: Services): Promise<void> {
  const current = services.aws.current.region;
  const items: vscode.QuickPickItem[] = REGIONS.map((r) => ({
    label: r.id,
    description: [r.id === current ? 'current' : '', r.mtrl ? 'MTRL available' : ''].filter(Boolean).join(' · ') || undefined,
  }));
  if (!REGIONS.some((r) => r.id === current)) items.unshift({ label: current, description: 'current' });
  const picked = await vscode.window.showQuickPick(items, {
    title: 'MTRL: Choose AWS Region',
    placeHolder: 'Region for jobs, runtimes and logs',
  });
  if (!picked) return;
  await writeAwsSetting('region', picked.label);
  services.output.info(`AWS region: ${picked.label}`);
}
