import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { commands } from '../../src/cli/commands';

const root = path.resolve(__dirname, '../..');
/** The docs a newcomer reads; the CHANGELOG is history and may name what is gone. */
const DOCS = ['README.md', ...readdirSync(path.join(root, 'docs')).map((name) => `docs/${name}`)];
const scripts = Object.keys((JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: object }).scripts);
const benches = readdirSync(path.join(root, 'bench'));
const subcommands = new Set(commands.map((c) => c.name));

/** Inline code spans and fenced blocks: where the docs name paths and commands. */
function codeOf(markdown: string): string[] {
  const fenced = [...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((m) => m[1]);
  const inline = [...markdown.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);
  return [...fenced, ...inline];
}

/** Repository paths in a code span, cut before the first placeholder or glob (`src/features/<feature>/` → `src/features/`). */
function pathsIn(code: string): string[] {
  const found = code.matchAll(/(?<![\w./~-])((?:src|test|bench|scripts|webview|media|docs|\.ci)\/[^\s`'"),:|]*)/g);
  return [...found].map((m) => m[1].split(/[<*{[]/)[0].replace(/[.…]+$/, '')).filter((p) => p.length > 0);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[^\n]*\n[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#+ (.+)$/gm)].map((m) => slug(m[1].trim())));
}

/** Everything in one doc that names something missing, as "doc: what". */
function missingIn(doc: string): string[] {
  const text = readFileSync(path.join(root, doc), 'utf8');
  const missing: string[] = [];
  for (const code of codeOf(text)) {
    for (const p of pathsIn(code)) if (!existsSync(path.join(root, p))) missing.push(`${doc}: path ${p}`);
    for (const m of code.matchAll(/\bnpm (?:run )?([\w:-]+)(?: ([a-z][\w-]*))?/g)) {
      const [, script, arg] = m;
      if (['ci', 'install', 'install-scripts', 'run'].includes(script)) continue;
      if (!scripts.includes(script)) missing.push(`${doc}: npm script ${script}`);
      else if (script === 'bench' && arg && !benches.some((b) => b.startsWith(arg))) missing.push(`${doc}: bench ${arg}`);
    }
    for (const m of code.matchAll(/(?:^|[\s(])(?:npx )?(?:mtrl|dist\/cli\.js) ([a-z][\w-]*)/g)) {
      if (!subcommands.has(m[1])) missing.push(`${doc}: mtrl ${m[1]}`);
    }
  }
  for (const m of text.matchAll(/\]\(([^)\s#]*)(?:#([^)\s]+))?\)/g)) {
    const [, target, anchor] = m;
    if (/^[a-z]+:/.test(target)) continue;
    const file = target ? path.resolve(path.dirname(path.join(root, doc)), target) : path.join(root, doc);
    if (!existsSync(file)) missing.push(`${doc}: link ${target}`);
    else if (anchor && !anchorsOf(file).has(anchor)) missing.push(`${doc}: anchor ${target}#${anchor}`);
  }
  return missing;
}

/** "`src/x.ts`, tested in `test/unit/y.test.ts`" claims whose test file never imports the module, as "doc: claim". */
function falseTestClaims(doc: string): string[] {
  const text = readFileSync(path.join(root, doc), 'utf8').replace(/\s+/g, ' ');
  const wrong: string[] = [];
  for (const m of text.matchAll(/`((?:src|webview)\/[^`]+)\.ts`, tested in `(test\/[^`]+\.ts)`/g)) {
    const [, module, test] = m;
    const imports = existsSync(path.join(root, test)) ? readFileSync(path.join(root, test), 'utf8') : '';
    // A command's module is tested through the command line (`run('metrics', …)`), any other by importing it.
    const command = /^src\/cli\/([^/]+)$/.exec(module)?.[1];
    const tested =
      imports.includes(`${module.replace(/^.*?\/(?=[^/]+\/[^/]+$)/, '')}'`) || (command !== undefined && imports.includes(`('${command}'`));
    if (!tested) wrong.push(`${doc}: ${module}.ts is not imported by ${test}`);
  }
  return wrong;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : /\.(ts|mjs)$/.test(e.name) ? [path.join(dir, e.name)] : [],
  );
}

/** Everything the code defines or names: src/, webview/ and the manifest (command ids). */
const codeText = () =>
  [...sourceFiles(path.join(root, 'src')), ...sourceFiles(path.join(root, 'webview')), path.join(root, 'package.json')]
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');

/** Code identifiers a doc names (`openViewPanel`, `Launcher.launch`, `register()`) that appear nowhere in the code. */
function unknownIdentifiers(markdown: string, code: string, example: RegExp): string[] {
  const names = codeOf(markdown)
    .map((span) => /^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?:\(.*\)|<.*>)?$/.exec(span)?.[1])
    .filter((name): name is string => name !== undefined && !example.test(name));
  return [...new Set(names)].filter((name) =>
    name.split('.').some((part) => !new RegExp(`(?<![\\w$])${part.replace(/\$/g, '\\$')}(?![\\w$])`).test(code)),
  );
}

/** CHANGELOG bullets longer than two sentences, and bullets that say the same as an earlier one (the same opening words). */
function changelogProblems(changelog: string): string[] {
  const bullets = changelog.split('\n').filter((line) => line.startsWith('- '));
  const opening = (b: string) =>
    b
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s]/gu, '')
      .split(/\s+/)
      .slice(1, 6)
      .join(' ');
  return bullets.flatMap((b, i) => {
    const sentences = b.match(/[.!?](?=\s+[A-Z*`]|\s*$)/g)?.length ?? 0;
    const problems = sentences > 2 ? [`${sentences} sentences: ${b.slice(0, 60)}`] : [];
    if (bullets.slice(0, i).some((earlier) => opening(earlier) === opening(b))) problems.push(`repeated: ${b.slice(0, 60)}`);
    return problems;
  });
}

/** Citations of documents outside the repository (a private reference's sections, the helpers' shared notes). */
const OUTSIDE_CITATION = /\breference\s*\(?§|mtrl-reference|house-style|\.\.\/shared\/[\w-]+\.md/i;

/** Files that cite a document outside the repository other than by a public URL. */
function outsideCitations(files: readonly string[]): string[] {
  return files.filter((file) => OUTSIDE_CITATION.test(readFileSync(file, 'utf8'))).map((file) => path.relative(root, file));
}

describe('docs', () => {
  for (const doc of DOCS) {
    it(`${doc} names only paths, npm scripts, benches and mtrl commands that exist`, () => {
      assert.deepEqual(missingIn(doc), []);
    });
  }

  it("the README stays a user's guide of at most 800 lines (detail lives under docs/)", () => {
    const lines = readFileSync(path.join(root, 'README.md'), 'utf8').split('\n').length;
    assert.ok(lines <= 800, `README.md has ${lines} lines`);
  });

  it("docs/architecture.md names only identifiers the code has (the worked example's checkpoints view aside)", () => {
    const code = codeText();
    const doc = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8').replace(/^```[^\n]*\n[\s\S]*?^```/gm, '');
    assert.deepEqual(unknownIdentifiers(doc, code, /checkpoint/i), []);
    assert.deepEqual(unknownIdentifiers('`openViewPanel`, `Launcher.launchNow`, `listCheckpoints()`', code, /checkpoint/i), [
      'Launcher.launchNow',
    ]);
  });

  it('no comment or doc cites a document outside the repository, except by public URL', () => {
    const everyText = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory()
          ? e.name === 'node_modules'
            ? []
            : everyText(path.join(dir, e.name))
          : /\.(ts|mjs|js|py|css|md)$/.test(e.name)
            ? [path.join(dir, e.name)]
            : [],
      );
    const files = ['src', 'webview', 'test', 'scripts', 'bench', 'docs'].flatMap((dir) => everyText(path.join(root, dir)));
    const self = path.join(root, 'test/unit/docs.test.ts');
    assert.deepEqual(outsideCitations([path.join(root, 'README.md'), ...files.filter((f) => f !== self)]), []);
    assert.ok(OUTSIDE_CITATION.test('the real support agent (reference §13)') && !OUTSIDE_CITATION.test('a service reference page'));
  });

  it('CHANGELOG entries are one or two sentences, none repeated', () => {
    assert.deepEqual(changelogProblems(readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8')), []);
    const bad = '- Replay: one. Two. Three.\n- The board reads saved transcripts fast.\n- The board reads saved transcripts fast, again.';
    assert.deepEqual(changelogProblems(bad), [
      '3 sentences: - Replay: one. Two. Three.',
      'repeated: - The board reads saved transcripts fast, again.',
    ]);
  });

  it('every "tested in" claim of the docs names a test that imports the module', () => {
    assert.deepEqual(DOCS.flatMap(falseTestClaims), []);
    const claim = 'x `src/services/metrics/load.ts`, tested in `test/unit/services/metrics/locate.test.ts`.';
    assert.ok(
      /tested in/.test(claim) &&
        !readFileSync(path.join(root, 'test/unit/services/metrics/locate.test.ts'), 'utf8').includes("metrics/load'"),
    );
  });

  it('the checks catch a path, a script, a command and an anchor that do not exist', () => {
    const code = codeOf('`src/core/nothing-here.ts` and `npm run nothing` and `mtrl nothing` [x](README.md#nothing)');
    assert.deepEqual(
      code.flatMap(pathsIn).filter((p) => !existsSync(path.join(root, p))),
      ['src/core/nothing-here.ts'],
    );
    assert.ok(!scripts.includes('nothing') && !subcommands.has('nothing'));
    assert.ok(
      !anchorsOf(path.join(root, 'README.md')).has('nothing') && anchorsOf(path.join(root, 'README.md')).has('try-it-without-installing'),
    );
  });
});
