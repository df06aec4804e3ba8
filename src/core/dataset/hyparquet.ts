// The Parquet decoder, in one module bundled on its own (dist/hyparquet.js) and loaded with the first Parquet file.
// hyparquet is an ES module: Node 22 requires it as one, and esbuild turns it into CommonJS in the bundle.
type Hyparquet = typeof import('hyparquet', { with: { 'resolution-mode': 'import' } });
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const { parquetMetadataAsync, parquetReadObjects } = require('hyparquet') as Hyparquet;
