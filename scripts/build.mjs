// One build for the bundles: the extension (Node, CJS), the `mtrl` CLI, the AWS SDK both load on first use, and each webview app (browser).
import * as esbuild from 'esbuild';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeIcon } from './icon.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'info',
  absWorkingDir: root,
};

const webviewEntries = existsSync(path.join(root, 'webview'))
  ? readdirSync(path.join(root, 'webview'))
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
      .map((f) => path.join('webview', f))
  : [];

/** Modules bundled on their own and required on first use (the AWS SDK, ajv, the CSV and Parquet readers), so activation and `mtrl --help` never load them. */
const apart = {
  'src/aws/sdk.ts': 'aws-sdk.js',
  'src/core/jobs/ajv.ts': 'ajv.js',
  'src/core/dataset/csvParse.ts': 'csv-parse.js',
  'src/core/dataset/hyparquet.ts': 'hyparquet.js',
  // Command bodies and panels activation does not need: each feature's index.ts registers the commands and requires these on first use.
  'src/features/signal/commands.ts': 'signal.js',
  'src/features/evaluations/comparison.ts': 'comparison.js',
  'src/features/smoke/command.ts': 'smoke.js',
  'src/features/metrics/panel.ts': 'metrics.js',
  'src/features/replay/panel.ts': 'replay.js',
  'src/features/replay/exportReport.ts': 'exportReport.js',
  'src/features/metrics/exportReport.ts': 'exportMetricsReport.js',
  'src/features/resources/cleanupFlow.ts': 'cleanup.js',
  'src/features/datasets/upload.ts': 'upload.js',
  'src/features/health/watch.ts': 'health.js',
  // Each `mtrl` command (the `require('./name')` of src/cli/commands.ts): `mtrl --help` compiles none of them.
  ...Object.fromEntries(
    [...readFileSync(path.join(root, 'src/cli/commands.ts'), 'utf8').matchAll(/require\('\.\/(\w+)'\)/g)].map(([, name]) => [
      `src/cli/${name}.ts`,
      `cli-${name}.js`,
    ]),
  ),
};
const keepApart = {
  name: 'keep-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/\w+$/ }, (args) => {
      const source = path.relative(root, path.join(args.resolveDir, `${args.path}.ts`));
      return args.kind === 'require-call' && apart[source] ? { path: `./${apart[source]}`, external: true } : undefined;
    });
  },
};

// ES module builds of the dependencies (the SDK's dist-es) so esbuild drops what is not used.
const node = { ...common, platform: 'node', format: 'cjs', target: 'node20', mainFields: ['module', 'main'], plugins: [keepApart] };

const builds = [
  { ...node, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  // Parquet is decoded on a worker thread (a corrupt file can make the decoder loop); extension and CLI both start it from dist/.
  { ...node, entryPoints: ['src/services/parquet/worker.ts'], outfile: 'dist/parquetWorker.js' },
  {
    ...node,
    entryPoints: ['src/cli.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
    define: { __MTRL_VERSION__: JSON.stringify(version) },
  },
  ...Object.entries(apart).map(([source, out]) => ({ ...node, entryPoints: [source], outfile: `dist/${out}`, external: ['vscode'] })),
];
if (webviewEntries.length) {
  builds.push({
    ...common,
    entryPoints: webviewEntries,
    outdir: 'dist/webview',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    loader: { '.css': 'text', '.ttf': 'dataurl' },
  });
}

/** Files that run beside the bundles: codicons for the webviews, Python helpers run with the user's interpreter; the package icon. */
function copyAssets() {
  writeIcon(root);
  const codicons = path.join(root, 'node_modules/@vscode/codicons/dist');
  mkdirSync(path.join(root, 'dist/webview'), { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) cpSync(path.join(codicons, f), path.join(root, 'dist/webview', f));
  const python = path.join(root, 'src/python');
  if (existsSync(python)) cpSync(python, path.join(root, 'dist/python'), { recursive: true });
}

if (watch) {
  copyAssets();
  for (const options of builds) await (await esbuild.context(options)).watch();
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
  copyAssets();
}
