// The Parquet decoder, in one module bundled on its own (dist/hyparquet.js) and loaded with the first Parquet file.
// hyparquet and hyparquet-compressors are ES modules: Node 22 requires them as such, and esbuild turns them into CommonJS in the bundle.
import { brotliDecompressSync, unzipSync } from 'node:zlib';
type Hyparquet = typeof import('hyparquet', { with: { 'resolution-mode': 'import' } });
type Compressors = typeof import('hyparquet-compressors', { with: { 'resolution-mode': 'import' } });
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const { parquetMetadataAsync, parquetReadObjects, parquetSchema } = require('hyparquet') as Hyparquet;
// Page by page, for text read straight into one buffer a column (parquetText.ts); the package exports its modules as `hyparquet/src/*.js`.
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const { parquetHeader } = require('hyparquet/src/column.js') as typeof import('hyparquet/src/column.js', {
  with: { 'resolution-mode': 'import' },
});
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const { decompressPage } = require('hyparquet/src/datapage.js') as typeof import('hyparquet/src/datapage.js', {
  with: { 'resolution-mode': 'import' },
});
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const { readRleBitPackedHybrid } = require('hyparquet/src/encoding.js') as typeof import('hyparquet/src/encoding.js', {
  with: { 'resolution-mode': 'import' },
});
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const { deltaBinaryUnpack } = require('hyparquet/src/delta.js') as typeof import('hyparquet/src/delta.js', {
  with: { 'resolution-mode': 'import' },
});
// eslint-disable-next-line @typescript-eslint/no-require-imports
const packaged = (require('hyparquet-compressors') as Compressors).compressors;

/**
 * Every codec the common writers use (pandas/pyarrow SNAPPY, polars ZSTD, GZIP, BROTLI, LZ4, LZ4_RAW): the package's
 * pure-JS/WebAssembly decompressors, with Node's own zlib for GZIP and BROTLI, which it decodes several times faster.
 */
export const compressors: Compressors['compressors'] = {
  ...packaged,
  GZIP: (input) => unzipSync(input),
  BROTLI: (input) => brotliDecompressSync(input),
};
