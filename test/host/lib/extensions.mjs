// The extensions dir of one run: the packaged product as users install it, next to the test runner.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { acquireLock } from './lock.mjs';

/**
 * `npm run package`, serialized across concurrent runs of this clone (another clone has its own dist/ and packages
 * beside); the .vsix is copied out before another run can delete dist/.
 */
export async function packageExtension(root, runDir, log) {
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const vsix = path.join(runDir, `mtrl-workbench-${version}.vsix`);
  // `npm test` packages once for its host runs (each would build the same .vsix, one waiting on the other's lock).
  if (process.env.MTRL_HOST_VSIX) {
    copyFileSync(process.env.MTRL_HOST_VSIX, vsix);
    return vsix;
  }
  const clone = createHash('sha256').update(path.resolve(root)).digest('hex').slice(0, 12);
  const release = await acquireLock(path.join(os.tmpdir(), `mtrl-workbench-package-${clone}.lock`), {
    label: 'another run packaging the extension',
    onWait: log,
  });
  try {
    const pack = () =>
      execFileSync(process.execPath, ['scripts/package.mjs'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    try {
      pack();
    } catch {
      // A build run outside the driver can empty dist/ under the packager: one retry tells that from a real failure.
      log('npm run package failed; retrying once');
      try {
        pack();
      } catch (error) {
        const output = `${error.stdout ?? ''}${error.stderr ?? ''}`.split('\n').filter((line) => line.trim() && !/^\s+at /.test(line));
        throw new Error(`npm run package failed:\n${output.slice(-25).join('\n')}`, { cause: error });
      }
    }
    copyFileSync(path.join(root, `dist/mtrl-workbench-${version}.vsix`), vsix);
    return vsix;
  } finally {
    release();
  }
}

/** Unpacks the .vsix's `extension/` folder as `<publisher>.<name>-<version>/`, the layout VS Code installs. */
export function installVsix(vsix, extensionsDir) {
  const unpacked = mkdtempSync(path.join(extensionsDir, '.vsix-'));
  // python3 (already a prerequisite) rather than unzip, which fresh machines often lack.
  execFileSync('python3', ['-m', 'zipfile', '-e', vsix, unpacked]);
  const manifest = JSON.parse(readFileSync(path.join(unpacked, 'extension/package.json'), 'utf8'));
  const id = `${manifest.publisher}.${manifest.name}`;
  const target = path.join(extensionsDir, `${id}-${manifest.version}`);
  renameSync(path.join(unpacked, 'extension'), target);
  rmSync(unpacked, { recursive: true, force: true });
  return { id, dir: target, manifest };
}

/** Bundles the runner extension (test/host/runner) into the extensions dir, with the desktop launcher's entry. */
export async function installRunner(root, extensionsDir) {
  const source = path.join(root, 'test/host/runner');
  const manifest = JSON.parse(readFileSync(path.join(source, 'package.json'), 'utf8'));
  const target = path.join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`);
  mkdirSync(target, { recursive: true });
  cpSync(path.join(source, 'package.json'), path.join(target, 'package.json'));
  await esbuild.build({
    entryPoints: [path.join(source, 'runner.ts'), path.join(source, 'desktop.ts')],
    outdir: target,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    logLevel: 'error',
  });
  return { id: `${manifest.publisher}.${manifest.name}`, dir: target };
}

/** Bundles each host suite (mocha BDD, `vscode` external) to CommonJS; returns the bundles in name order. */
export async function bundleSuites(files, outDir) {
  mkdirSync(outDir, { recursive: true });
  const bundles = [];
  for (const file of [...files].sort()) {
    const outfile = path.join(outDir, path.basename(file).replace(/\.ts$/, '.js'));
    await esbuild.build({
      entryPoints: [file],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      sourcemap: 'inline',
      external: ['vscode', 'mocha'],
      logLevel: 'error',
    });
    bundles.push(outfile);
  }
  return bundles;
}
