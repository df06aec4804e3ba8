import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { awsConfigFiles, listProfiles, profilesInIni } from '../../../src/aws/profiles';

describe('AWS profiles', () => {
  it('reads profile sections of the config file and skips sso-session sections', () => {
    const config = '[default]\nregion = us-east-1\n[profile ml-sso]\nsso_session = corp\n[sso-session corp]\nsso_start_url = https://x\n';
    assert.deepEqual(profilesInIni(config, 'config'), ['default', 'ml-sso']);
  });

  it('honours AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE and merges both files', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-profiles-'));
    writeFileSync(path.join(dir, 'c'), '[profile zeta]\n[default]\n');
    writeFileSync(path.join(dir, 'k'), '[alpha]\naws_access_key_id = x\n[zeta]\n');
    const env = { HOME: '/nowhere', AWS_CONFIG_FILE: path.join(dir, 'c'), AWS_SHARED_CREDENTIALS_FILE: path.join(dir, 'k') };
    assert.equal(awsConfigFiles(env).config, path.join(dir, 'c'));
    assert.deepEqual(await listProfiles(env), ['default', 'alpha', 'zeta']);
  });

  it('treats missing files as no profiles', async () => {
    assert.deepEqual(await listProfiles({ HOME: '/nowhere-at-all' }), []);
  });
});
