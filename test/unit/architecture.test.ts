import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : /\.(ts|js|mjs)$/.test(name) ? [full] : [];
  });
}

const IMPORT = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3]);
}

/** Files in `dir` that import something the layer must not see. */
function violations(dir: string, forbidden: (resolved: string, spec: string) => boolean): string[] {
  return sourceFiles(dir).flatMap((file) =>
    importsOf(file)
      .filter((spec) => forbidden(spec.startsWith('.') ? path.resolve(path.dirname(file), spec) : spec, spec))
      .map((spec) => `${path.relative(root, file)} imports '${spec}'`),
  );
}

/** Which top-level folders under src/ each layer may import (besides itself); `vscode` only where listed. */
const LAYERS: Record<string, { may: string[]; vscode: boolean; vscodeOnlyIn?: string }> = {
  core: { may: [], vscode: false },
  aws: { may: ['core'], vscode: false },
  services: { may: ['aws', 'core'], vscode: false },
  emulator: { may: ['core'], vscode: false },
  // The CLI writes one page (mtrl report) with the kit's page builder, as the features do.
  cli: { may: ['services', 'aws', 'core', 'emulator', 'webview-kit'], vscode: false },
  // Features reach AWS through services; the composition root and the AWS-settings feature aside (FEATURES_MAY_SEE_AWS).
  features: { may: ['services', 'core', 'shared', 'webview-kit'], vscode: true },
  shared: { may: ['core', 'webview-kit'], vscode: false },
  // The kit's panel scaffold (openViewPanel, showApp, restoreViewPanels) is its one file that talks to VS Code.
  'webview-kit': { may: ['core'], vscode: false, vscodeOnlyIn: 'panel.ts' },
};

/** The two places under src/features that may name src/aws: the composition root (the clients it hands out) and the AWS-settings feature. */
const FEATURES_MAY_SEE_AWS = ['src/features/services.ts', 'src/features/aws/'];

/** A feature's import of src/aws or the SDK (value, `import type` or `import()` alike) outside FEATURES_MAY_SEE_AWS. */
function featureReachesAws(file: string, spec: string): boolean {
  const from = path.relative(root, file);
  if (!from.startsWith('src/features/') || FEATURES_MAY_SEE_AWS.some((allowed) => from.startsWith(allowed))) return false;
  if (/^@(aws-sdk|smithy)\//.test(spec)) return true;
  return (
    spec.startsWith('.') && path.relative(path.join(root, 'src/aws'), path.resolve(path.dirname(file), spec)).split(path.sep)[0] !== '..'
  );
}

/** What the webview apps (webview/, bundled for the browser) may import from src/: the pure parts and the kit. */
const WEBVIEW_MAY = ['core', 'shared', 'webview-kit'];
/** The kit's extension-only files (Node crypto, vscode): page bundles must not reach them. */
const NODE_ONLY = [path.join(root, 'src/webview-kit/page'), path.join(root, 'src/webview-kit/panel')];

/** Where a file sits for the tie rule: its second-level folder (`services/signal`), or its layer for a layer's own files. */
function folderOf(src: string, file: string): string {
  return path.relative(src, path.dirname(file)).split(path.sep).slice(0, 2).join('/');
}

/**
 * Two folders that import each other (`services/signal` ↔ `services/launch`): neither can be understood, tested or
 * moved alone. A layer's own files and a folder inside it (`emulator` ↔ `emulator/refund`) are one room and not counted.
 */
function twoWayTies(edges: readonly { from: string; to: string; line: string }[]): string[] {
  const seen = new Map<string, string>();
  for (const e of edges) if (e.from !== e.to && !seen.has(`${e.from} -> ${e.to}`)) seen.set(`${e.from} -> ${e.to}`, e.line);
  const nested = (a: string, b: string) => a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
  return [...seen]
    .map(([key, line]) => ({ key, line, back: seen.get(key.split(' -> ').reverse().join(' -> ')) }))
    .filter(({ key, back }) => {
      const [a, b] = key.split(' -> ');
      return back !== undefined && a < b && !nested(a, b);
    })
    .map(({ key, line, back }) => `${key.replace(' -> ', ' <-> ')}: ${line}; ${back}`);
}

describe('architecture', () => {
  const src = path.join(root, 'src');
  const layerOf = (resolved: string) => {
    const rel = path.relative(src, resolved);
    return rel.startsWith('..') || path.isAbsolute(rel) ? undefined : rel.split(path.sep)[0];
  };

  for (const [layer, rule] of Object.entries(LAYERS)) {
    const vscodeNote = rule.vscodeOnlyIn ? ` (vscode only in ${rule.vscodeOnlyIn})` : '';
    it(`src/${layer} imports only ${[...rule.may, ...(rule.vscode ? ['vscode'] : [])].join(', ') || 'itself'}${vscodeNote}`, () => {
      const allowed = rule.vscodeOnlyIn && `src/${layer}/${rule.vscodeOnlyIn} imports 'vscode'`;
      const found = violations(path.join(src, layer), (resolved, spec) => {
        if (spec === 'vscode') return !rule.vscode;
        if (!spec.startsWith('.')) return false;
        const target = layerOf(resolved.replace(/\.(ts|js)$/, ''));
        if (target === undefined) return true; // outside src/: test/, scripts/, …
        if (layer === 'features' && target === 'aws') return false; // the next test, with its two exceptions
        return target !== layer && LAYERS[target] !== undefined && !rule.may.includes(target);
      });
      assert.deepEqual(
        found.filter((line) => line !== allowed),
        [],
      );
    });
  }

  it(`features reach AWS through services: no import of src/aws or the SDK outside ${FEATURES_MAY_SEE_AWS.join(' and ')}`, () => {
    const found = sourceFiles(path.join(src, 'features')).flatMap((file) =>
      importsOf(file)
        .filter((spec) => featureReachesAws(file, spec))
        .map((spec) => `${path.relative(root, file)} imports '${spec}'`),
    );
    assert.deepEqual(found, []);
  });

  it('the features → aws rule sees a value, a type and a dynamic import, and lets the two exceptions through', () => {
    const feature = path.join(src, 'features/launch/x.ts');
    const sample = [
      "import { listJobs } from '../../aws/sagemaker';",
      "import type { AwsClients } from '../../aws/clients';",
      "const s3 = (await import('../../aws/s3')).listFolder;",
      "import type { JobSummary } from '@aws-sdk/client-sagemaker';",
      "import { jobRegions } from '../aws/settings';",
      "import { jobsIn } from '../../services/jobs/lookup';",
    ].join('\n');
    const specs = [...sample.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3]);
    assert.deepEqual(
      specs.filter((spec) => featureReachesAws(feature, spec)),
      ['../../aws/sagemaker', '../../aws/clients', '../../aws/s3', '@aws-sdk/client-sagemaker'],
    );
    assert.equal(featureReachesAws(path.join(src, 'features/services.ts'), '../aws/clients'), false);
    assert.equal(featureReachesAws(path.join(src, 'features/aws/commands.ts'), '../../aws/profiles'), false);
    assert.equal(featureReachesAws(path.join(src, 'services/runtimes.ts'), '../aws/agentcore'), false);
  });

  it(`webview/ apps import only src/${WEBVIEW_MAY.join(', src/')}, never Node, vscode or the kit's page builder`, () => {
    const found = violations(path.join(root, 'webview'), (resolved, spec) => {
      if (spec === 'vscode' || spec.startsWith('node:')) return true;
      if (!spec.startsWith('.')) return false;
      const file = resolved.replace(/\.(ts|js)$/, '');
      if (NODE_ONLY.includes(file)) return true;
      const target = layerOf(file);
      return target === undefined ? !file.startsWith(path.join(root, 'webview')) : !WEBVIEW_MAY.includes(target);
    });
    assert.deepEqual(found, []);
  });

  it("the kit's page half imports nothing Node-only", () => {
    const pageHalf = sourceFiles(path.join(src, 'webview-kit')).filter((file) => !NODE_ONLY.includes(file.replace(/\.ts$/, '')));
    const found = violations(
      path.join(src, 'webview-kit'),
      (resolved, spec) => spec.startsWith('node:') || spec === 'vscode' || NODE_ONLY.includes(resolved.replace(/\.(ts|js)$/, '')),
    ).filter((line) => pageHalf.some((file) => line.startsWith(path.relative(root, file))));
    assert.deepEqual(found, []);
  });

  it('nothing outside the Wordle pack imports it, but the registry, the emulator that plays Wordle and the Wordle views', () => {
    const pack = path.join(src, 'core/environments/wordle');
    // Each with its reason: the registry lists every pack; the emulator plays the game; the board's Wordle renderer
    // draws the tiles. The rest (smoke verdict, agent lint, reward preview) ask the registry for the pack's hooks.
    const allowed = ['src/core/environments/registry.ts', 'src/emulator/', 'webview/replay/renderers/wordle.ts'];
    const found = [...sourceFiles(src), ...sourceFiles(path.join(root, 'webview'))]
      .filter((file) => !file.startsWith(pack) && !allowed.some((a) => path.relative(root, file).startsWith(a)))
      .flatMap((file) =>
        importsOf(file)
          .filter((spec) => spec.startsWith('.') && path.resolve(path.dirname(file), spec).startsWith(pack))
          .map((spec) => `${path.relative(root, file)} imports '${spec}'`),
      );
    assert.deepEqual(found, []);
  });

  it('nothing outside the Wordle pack speaks of guesses or an all-green mark', () => {
    const pack = path.join(src, 'core/environments/wordle');
    // Insert Rollout Logging writes the Wordle sample agent's record (core/rollouts/logging.ts and its command).
    const sampleAgent = ['src/core/rollouts/logging.ts', 'src/features/replay/insertLogging.ts'];
    const found = ['core/rollouts', 'core/transcript', 'core/environments', 'services/rollouts', 'features/replay', 'shared']
      .flatMap((dir) => sourceFiles(path.join(src, dir)))
      .concat(sourceFiles(path.join(src, 'cli')).filter((file) => /rollouts/.test(file)))
      // The board too, but for the Wordle pack's renderer.
      .concat(sourceFiles(path.join(root, 'webview/replay')).filter((file) => !file.endsWith('renderers/wordle.ts')))
      .filter((file) => !file.startsWith(pack) && !sampleAgent.includes(path.relative(root, file)))
      .filter((file) => /\bguess(es)?\b|GGGGG/i.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(root, file));
    assert.deepEqual(found, []);
  });

  it('no two folders of src/ import each other (a two-way tie: move the shared piece below both)', () => {
    const edges = sourceFiles(src).flatMap((file) =>
      importsOf(file)
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => ({ target: path.resolve(path.dirname(file), spec), spec }))
        .filter(({ target }) => layerOf(target) !== undefined)
        .map(({ target, spec }) => ({
          from: folderOf(src, file),
          to: folderOf(src, `${target}.ts`),
          line: `${path.relative(src, file)} imports '${spec}'`,
        })),
    );
    assert.deepEqual(twoWayTies(edges), []);
  });

  it('the tie rule sees a tie, and not a layer and a folder inside it', () => {
    const edge = (from: string, to: string) => ({ from, to, line: `${from}/x.ts imports ${to}` });
    assert.deepEqual(twoWayTies([edge('services/signal', 'services/launch'), edge('services/launch', 'services/signal')]), [
      'services/launch <-> services/signal: services/launch/x.ts imports services/signal; services/signal/x.ts imports services/launch',
    ]);
    assert.deepEqual(twoWayTies([edge('emulator', 'emulator/refund'), edge('emulator/refund', 'emulator')]), []);
    assert.deepEqual(twoWayTies([edge('core/smoke', 'core/jobs')]), []);
  });

  it('settings are read and watched through one door (src/features/settings.ts)', () => {
    const door = path.join(src, 'features/settings.ts');
    const found = sourceFiles(src)
      .filter((file) => file !== door && /\b(getConfiguration|onDidChangeConfiguration)\b/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(root, file));
    assert.deepEqual(found, []);
  });

  it('datasets are opened, sized and paired through one door (src/services/datasets/): the CLI, the editor and the pre-flight call it', () => {
    const door = path.join(src, 'services/datasets');
    // The core's readers and the batch-size lookup, called by nothing but the service (and the core itself).
    const reader = /\b(validateDataset|validateParquet|validateText|parquetFile|batchSizeFromJobFiles)\s*\(/;
    const found = sourceFiles(src)
      .filter((file) => !file.startsWith(door) && !file.startsWith(path.join(src, 'core')) && reader.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(root, file));
    assert.deepEqual(found, []);
    for (const caller of [
      'cli/validate.ts',
      'features/datasets/validation.ts',
      'features/datasets/validateCommand.ts',
      'services/launch/launch.ts',
    ]) {
      const file = path.join(src, caller);
      const served = importsOf(file).some((spec) => path.resolve(path.dirname(file), spec).startsWith(door));
      assert.ok(served, `${caller} reads datasets through src/services/datasets`);
    }
  });

  it('the test probes (mtrl.get…View, mtrl.getJobHealth) are named only in the test hooks, registered under the harness alone', () => {
    const hooks = path.join(src, 'features/testHooks.ts');
    const probe = /mtrl\.get\w*View\b|mtrl\.getJobHealth\b/;
    const found = sourceFiles(src)
      .filter((file) => file !== hooks && probe.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(root, file));
    assert.deepEqual(found, []);
    assert.match(readFileSync(hooks, 'utf8'), probe);
  });

  it('every folder under src/ has a layer rule', () => {
    const folders = readdirSync(src).filter((name) => statSync(path.join(src, name)).isDirectory() && name !== 'python');
    assert.deepEqual(
      folders.filter((name) => !LAYERS[name]),
      [],
    );
  });

  it('only src/aws (and the emulator) import the AWS SDK clients at run time', () => {
    const found = ['core', 'services', 'features', 'cli', 'shared'].flatMap((layer) =>
      sourceFiles(path.join(src, layer)).flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/^import\s+(?!type\b)[^;]*?from\s*['"](@aws-sdk\/client-[^'"]+)['"]/gm)]
          .filter((m) => !/^import\s*\{(\s*type\s+[^,}]+,?)+\s*\}/.test(m[0]))
          .map((m) => `${path.relative(root, file)} imports '${m[1]}'`),
      ),
    );
    assert.deepEqual(found, []);
  });

  it('nothing but src/aws/sdk.ts imports a value from the AWS SDK, so the SDK loads on first use and not with the extension', () => {
    const sdkModule = path.join(src, 'aws', 'sdk.ts');
    const found = sourceFiles(src)
      .filter((file) => file !== sdkModule)
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s+(?!type\b)([^;]*?)from\s*['"]((?:@aws-sdk|@smithy)\/[^'"]+)['"]/gm)]
          .filter((m) => !/^\{(\s*type\s+[^,}]+,?)+\s*\}\s*$/.test(m[1].trim()))
          .map((m) => `${path.relative(root, file)} imports '${m[2]}'`),
      );
    assert.deepEqual(found, []);
  });

  it('a module bundled apart (scripts/build.mjs) is reached only by require, so dist/extension.js does not hold it too, and the .vsix ships its bundle', () => {
    const build = readFileSync(path.join(root, 'scripts/build.mjs'), 'utf8');
    const apart = [...build.matchAll(/^\s*'(src\/[^']+)\.ts': '([\w-]+\.js)',$/gm)].map((m) => ({
      module: path.join(root, m[1]),
      bundle: m[2],
    }));
    assert.ok(apart.length >= 8, `the apart map was not found in scripts/build.mjs (${apart.length} entries)`);
    const modules = new Set(apart.map((a) => a.module));
    const found = sourceFiles(src).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s+(?!type\b)([^;]*?)from\s*['"](\.[^'"]+)['"]/gm)]
        .filter((m) => !/^\{(\s*type\s+[^,}]+,?)+\s*\}\s*$/.test(m[1].trim()))
        .filter((m) => modules.has(path.resolve(path.dirname(file), m[2])))
        .map((m) => `${path.relative(root, file)} imports '${m[2]}'`),
    );
    assert.deepEqual(found, []);
    const shipped = readFileSync(path.join(root, '.vscodeignore'), 'utf8').split('\n');
    assert.deepEqual(
      apart.filter((a) => !shipped.includes(`!dist/${a.bundle}`)).map((a) => a.bundle),
      [],
    );
    // The CLI's commands are bundled apart by the same build (one `dist/cli-NAME.js` each), read from src/cli/commands.ts.
    assert.match(build, /src\/cli\/commands\.ts[\s\S]*`cli-\$\{name\}\.js`/);
    assert.ok(shipped.includes('!dist/cli-*.js'), '.vscodeignore does not ship the CLI command bundles (dist/cli-*.js)');
  });

  it('no test file imports another (mocha would register its tests once or twice, by which worker loads it first)', () => {
    const found = violations(path.join(root, 'test'), (resolved, spec) => spec.startsWith('.') && /\.test(\.ts)?$/.test(resolved));
    assert.deepEqual(found, []);
  });

  it('the guard itself sees a forbidden import', () => {
    assert.deepEqual(importsOf(__filename).includes('node:fs'), true);
    assert.ok(IMPORT.source.length > 0);
    const sample = "import * as vscode from 'vscode';\nconst x = require('../aws/s3');";
    assert.deepEqual(
      [...sample.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3]),
      ['vscode', '../aws/s3'],
    );
  });
});
