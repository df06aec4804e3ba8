import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

// A pack adds knowledge; nothing outside it may assume it. Each pack's own words, and where they may appear.

const root = path.resolve(__dirname, '../..');

/**
 * Identifiers only a pack knows, per pack (its folder under src/core/environments/ and its renderer's name), and its id
 * as a string literal: code elsewhere that compares with `'wordle'` assumes the pack instead of asking the registry.
 */
const PACK_IDENTIFIERS: Record<string, string[]> = {
  wordle: [
    'WordleGame',
    'guess_word',
    'WORDLE_',
    'wordlePack',
    'WordleData',
    'WordleTurn',
    'guess_from_text',
    'canonicalGames',
    "'wordle'",
    '"wordle"',
    'wordle.css',
  ],
};

/**
 * Where every pack may be named: the registry lists the packs, the renderer list and its stylesheets list their drawings,
 * the emulator plays the games, the tests drive them.
 */
const EVERY_PACK_MAY = [
  'src/core/environments/registry.ts',
  'webview/replay/renderers/index.ts',
  'webview/replay/renderers/styles.ts',
  'src/emulator/',
  'test/',
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : /\.(ts|js|mjs|py|css)$/.test(name) ? [full] : [];
  });
}

/** Files that name a pack's identifiers outside its allowed places, with the identifier found. */
function strayMentions(pack: string, sources: readonly { file: string; text: string }[]): string[] {
  const allowed = [`src/core/environments/${pack}/`, `webview/replay/renderers/${pack}.`, ...EVERY_PACK_MAY];
  return sources
    .filter(({ file }) => !allowed.some((a) => file.startsWith(a)))
    .flatMap(({ file, text }) => PACK_IDENTIFIERS[pack].filter((id) => text.includes(id)).map((id) => `${file} names ${id}`));
}

describe('packs own their knowledge', () => {
  const sources = ['src', 'webview'].flatMap((dir) =>
    files(path.join(root, dir)).map((file) => ({ file: path.relative(root, file), text: readFileSync(file, 'utf8') })),
  );

  for (const pack of Object.keys(PACK_IDENTIFIERS))
    it(`the ${pack} pack's identifiers appear only in its folder, its renderer, the emulator and tests`, () => {
      assert.deepEqual(strayMentions(pack, sources), []);
    });

  it('fails when a pack identifier is added outside the pack', () => {
    const added = [...sources, { file: 'src/core/rollouts/board.ts', text: "const tool = 'guess_word';" }];
    assert.deepEqual(strayMentions('wordle', added), ['src/core/rollouts/board.ts names guess_word']);
    const convention = [...sources, { file: 'src/core/settings.ts', text: "oneOf: ['auto', 'wordle', 'task', 'none']" }];
    assert.deepEqual(strayMentions('wordle', convention), ["src/core/settings.ts names 'wordle'"]);
  });
});
