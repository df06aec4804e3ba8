// The Marketplace icon (media/icon.png, 128 px) drawn from the one source, the activity bar's media/mtrl.svg, on a tile.
import { Resvg } from '@resvg/resvg-js';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const SIZE = 128;
const TILE = '#232f3e';
const GLYPH = '#ffffff';

/** The PNG bytes: the glyph's shapes scaled into the tile, its root attributes (stroke, fill) kept on a group. */
export function iconPng(svg) {
  const root = /<svg\b([^>]*)>([\s\S]*)<\/svg>/.exec(svg);
  if (!root) throw new Error('media/mtrl.svg has no <svg> element');
  const attributes = root[1].replace(/\s(xmlns|width|height|viewBox)="[^"]*"/g, '');
  const box = Number(/viewBox="0 0 (\d+(?:\.\d+)?)/.exec(root[1])?.[1] ?? 24);
  const scale = (SIZE * 0.7) / box;
  const offset = (SIZE - box * scale) / 2;
  const tile = `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}">
<rect width="${SIZE}" height="${SIZE}" rx="${SIZE / 6}" fill="${TILE}"/>
<g transform="translate(${offset} ${offset}) scale(${scale})" color="${GLYPH}"${attributes}>${root[2]}</g></svg>`;
  return new Resvg(tile, { fitTo: { mode: 'width', value: SIZE } }).render().asPng();
}

export function writeIcon(root) {
  writeFileSync(path.join(root, 'media/icon.png'), iconPng(readFileSync(path.join(root, 'media/mtrl.svg'), 'utf8')));
}

if (import.meta.url === `file://${process.argv[1]}`) writeIcon(path.resolve(path.dirname(new URL(import.meta.url).pathname), '..'));
