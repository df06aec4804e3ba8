// Child of bundle.bench.ts: requires a built dist/extension.js with a stand-in `vscode` module, calls activate(), and prints
// every JavaScript file Node loaded for it (path and bytes) and the wall and CPU time of require + activate() as JSON.
// The stand-in answers any property, call or `new` with another stand-in, so every feature's register() runs its real code.
'use strict';
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');

const extensionFile = path.resolve(process.argv[2]);

function standIn(name) {
  const children = new Map();
  return new Proxy(function () {}, {
    get(target, key) {
      if (key === 'then') return undefined; // not a promise: `await standIn` resolves to it
      if (key === Symbol.toPrimitive) return () => '';
      if (key === Symbol.iterator) return function* () {};
      if (children.has(key)) return children.get(key);
      if (typeof key === 'symbol' || key === 'prototype') return target[key];
      if (!children.has(key)) children.set(key, standIn(`${name}.${String(key)}`));
      return children.get(key);
    },
    set(_, key, value) {
      children.set(key, value);
      return true;
    },
    apply: () => standIn(`${name}()`),
    construct: () => standIn(`new ${name}`),
  });
}

const settings = { get: (_key, fallback) => fallback, has: () => false, inspect: () => undefined, update: async () => undefined };
const vscode = standIn('vscode');
const workspace = vscode.workspace;
const overrides = {
  workspace: new Proxy(workspace, {
    get: (target, key) =>
      ({ getConfiguration: () => settings, workspaceFolders: undefined, textDocuments: [], isTrusted: true })[key] ?? target[key],
  }),
  window: new Proxy(vscode.window, {
    get: (target, key) => ({ visibleTextEditors: [], activeTextEditor: undefined, tabGroups: { all: [] } })[key] ?? target[key],
  }),
};
const fakeVscode = new Proxy(vscode, {
  get: (target, key) => overrides[key] ?? target[key],
  // The bundle's import helper copies own keys, then reads the rest through the prototype: route that back here.
  getPrototypeOf: () => new Proxy(Object.create(null), { get: (_, key) => fakeVscode[key] }),
});

// An ordinary start, not the first: the walkthrough opened once already.
const memento = {
  get: (key, fallback) => (key === 'mtrl.walkthroughOpened' ? true : fallback),
  update: async () => undefined,
  keys: () => [],
  setKeysForSync: () => undefined,
};
const context = {
  subscriptions: [],
  extensionPath: path.dirname(path.dirname(extensionFile)),
  extensionUri: standIn('extensionUri'),
  asAbsolutePath: (p) => path.join(path.dirname(path.dirname(extensionFile)), p),
  globalState: memento,
  workspaceState: memento,
  secrets: standIn('secrets'),
  storageUri: undefined,
  globalStorageUri: standIn('globalStorageUri'),
  logUri: standIn('logUri'),
  extensionMode: 1,
};

const loaded = [];
const compileJs = Module._extensions['.js'];
Module._extensions['.js'] = function (module, filename) {
  loaded.push({ file: filename, bytes: fs.statSync(filename).size });
  return compileJs.call(this, module, filename);
};
const load = Module._load;
Module._load = function (request, ...rest) {
  return request === 'vscode' ? fakeVscode : load.call(this, request, ...rest);
};

const started = performance.now();
const cpuAtStart = process.cpuUsage();
let error;
let requireMs;
try {
  const extension = require(extensionFile);
  requireMs = performance.now() - started;
  extension.activate(context);
} catch (e) {
  error = e instanceof Error ? e.stack : String(e);
}
const ms = performance.now() - started;
// CPU time of this thread's process over the same span: what the work costs, without the time other processes held the cores.
const cpu = process.cpuUsage(cpuAtStart);
const cpuMs = (cpu.user + cpu.system) / 1000;
const beforeReturn = loaded.slice();
// What the extension loads soon after activation without any user action (it should not be the SDK either).
setTimeout(() => {
  process.stdout.write(JSON.stringify({ ms, cpuMs, requireMs, loaded: beforeReturn, loadedAfterASecond: loaded, error }));
  process.exit(0);
}, 1000);
