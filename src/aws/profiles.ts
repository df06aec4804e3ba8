import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';

/** Where the AWS CLI keeps profiles, honouring AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE. */
export function awsConfigFiles(env: NodeJS.ProcessEnv = process.env): { config: string; credentials: string } {
  const home = env.HOME || env.USERPROFILE || homedir();
  return {
    config: env.AWS_CONFIG_FILE || path.join(home, '.aws', 'config'),
    credentials: env.AWS_SHARED_CREDENTIALS_FILE || path.join(home, '.aws', 'credentials'),
  };
}

/** Profile names in an AWS config file (`[profile x]`, `[default]`) or credentials file (`[x]`); sso-session and services sections are not profiles. */
export function profilesInIni(text: string, kind: 'config' | 'credentials'): string[] {
  const names: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const header = /^\s*\[\s*([^\]]+?)\s*\]\s*(?:[#;].*)?$/.exec(line);
    if (!header) continue;
    const section = header[1];
    if (kind === 'credentials') names.push(section);
    else if (section === 'default') names.push('default');
    else if (section.startsWith('profile ')) names.push(section.slice('profile '.length).trim());
  }
  return names;
}

/** Every profile the two files define, sorted, `default` first; missing files count as empty. */
export async function listProfiles(env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const files = awsConfigFiles(env);
  const read = (file: string) => readFile(file, 'utf8').catch(() => '');
  const [config, credentials] = await Promise.all([read(files.config), read(files.credentials)]);
  const names = new Set([...profilesInIni(config, 'config'), ...profilesInIni(credentials, 'credentials')]);
  return [...names].sort((a, b) => (a === 'default' ? -1 : b === 'default' ? 1 : a.localeCompare(b)));
}
