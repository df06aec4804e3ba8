// Just enough PNG reading to tell a drawn screenshot from a blank one: 8-bit RGB or RGBA, not interlaced.
import { inflateSync } from 'node:zlib';

export interface PixelStats {
  width: number;
  height: number;
  /** Standard deviation of the pixels' luminance (0 for one colour). */
  luminanceSd: number;
  /** Share of pixels unlike the most common colour (the background). */
  inked: number;
}

const paeth = (a: number, b: number, c: number) => {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
};

/** The screenshot's pixel statistics; throws on a PNG shape this reader does not know. */
export function pixelStats(png: Buffer): PixelStats {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const [depth, colour, , , interlace] = png.subarray(24, 29);
  const channels = colour === 6 ? 4 : colour === 2 ? 3 : 0;
  if (depth !== 8 || !channels || interlace) throw new Error(`PNG of depth ${depth}, colour type ${colour}, interlace ${interlace}`);
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += length + 12;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const v = raw[y * (stride + 1) + 1 + x];
      const a = x >= channels ? pixels[y * stride + x - channels] : 0;
      const b = y ? pixels[(y - 1) * stride + x] : 0;
      const c = x >= channels && y ? pixels[(y - 1) * stride + x - channels] : 0;
      const predicted = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter];
      pixels[y * stride + x] = (v + predicted) & 0xff;
    }
  }
  const counts = new Map<number, number>();
  let sum = 0;
  let squares = 0;
  for (let i = 0; i < pixels.length; i += channels) {
    const [r, g, b] = [pixels[i], pixels[i + 1], pixels[i + 2]];
    const l = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    sum += l;
    squares += l * l;
    const key = (r << 16) | (g << 8) | b;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const n = width * height;
  const mean = sum / n;
  const background = Math.max(...counts.values());
  return { width, height, luminanceSd: Math.sqrt(Math.max(0, squares / n - mean * mean)), inked: 1 - background / n };
}
