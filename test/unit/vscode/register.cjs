// Unit tests import `vscode` as the features do; in plain Node it resolves to the stub beside this file.
require('../pythonOnPath.cjs');
const Module = require('node:module');
const path = require('node:path');

const stub = path.join(__dirname, 'stub.ts');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? stub : resolve.call(this, request, ...rest);
};
