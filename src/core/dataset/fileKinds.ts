import type { DatasetFormat } from './types';

/**
 * Files users hand over that hold no dataset the service reads, told by their first bytes or their name: compressed
 * otherwise than gzip (which is read), Arrow as Feather and `datasets`' `save_to_disk` write, or Parquet under a text
 * name. Each message says what to do instead; none of them is read as rows.
 */

interface Compression {
  name: string;
  extension: string;
  magic: number[];
  undo: string;
}

const COMPRESSIONS: Compression[] = [
  // "BZh", a block size digit, then the first block's "1AY&SY": a CSV header could start with "BZh".
  { name: 'bzip2', extension: 'bz2', magic: [0x42, 0x5a, 0x68, -1, 0x31, 0x41, 0x59, 0x26, 0x53, 0x59], undo: 'bunzip2 -k FILE.bz2' },
  { name: 'xz', extension: 'xz', magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], undo: 'unxz -k FILE.xz' },
  { name: 'zip', extension: 'zip', magic: [0x50, 0x4b, 0x03, 0x04], undo: 'unzip FILE.zip' },
  { name: 'Zstandard', extension: 'zst', magic: [0x28, 0xb5, 0x2f, 0xfd], undo: 'zstd -d FILE.zst' },
];

const ARROW_FILE = [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31, 0, 0]; // "ARROW1" and padding: Feather v2, the Arrow IPC file format
const ARROW_STREAM = [0xff, 0xff, 0xff, 0xff]; // the IPC stream's continuation marker, as `save_to_disk` writes `.arrow`
const PARQUET = [0x50, 0x41, 0x52, 0x31, 0x15]; // "PAR1", then the first page header's first field (a CSV header could start "PAR1")

/** -1 in `magic` takes any byte. */
const startsWith = (bytes: Uint8Array, magic: number[]) =>
  bytes.length >= magic.length && magic.every((b, i) => b === -1 || bytes[i] === b);

function compressedMessage(c: Compression): string {
  return (
    `The file is compressed with ${c.name}, which mtrl does not read (it reads gzip), and the service reads a dataset as ` +
    `stored (a guess: its documentation names no compressed format). Decompress it (\`${c.undo}\`) and upload that; ` +
    `pandas compresses by the name it is given, so a name without \`.${c.extension}\` writes the file plain.`
  );
}

const ARROW_MESSAGE =
  'The file is Arrow, as `df.to_feather()` and Hugging Face `save_to_disk()` write it; the service reads JSON Lines, ' +
  'JSON, CSV or Parquet. Write Parquet instead: `df.to_parquet("train.parquet")`, or `ds.to_parquet("train.parquet")` ' +
  'for a `datasets` Dataset.';

/** What the first bytes of a file given as `format` say it really is, when that is none of the formats; else undefined. */
export function otherKindOf(head: Uint8Array, format: DatasetFormat): string | undefined {
  const compression = COMPRESSIONS.find((c) => startsWith(head, c.magic));
  if (compression) return compressedMessage(compression);
  if (startsWith(head, ARROW_FILE) || startsWith(head, ARROW_STREAM)) return ARROW_MESSAGE;
  if (format !== 'parquet' && startsWith(head, PARQUET))
    return 'The file is Parquet (it starts with `PAR1`) under another name: name it `.parquet`, or pass `--format parquet` to mtrl validate.';
  if (format === 'parquet' && (head[0] === 0x7b || head[0] === 0x5b))
    return `The file is JSON text (it starts with \`${String.fromCharCode(head[0])}\`), not Parquet: name it \`.jsonl\` (rows one per line) or \`.json\` (one array).`;
  return undefined;
}

/** Why a name tells no format, when it says what the file is: a dataset compressed otherwise than gzip, Arrow, TSV or Excel. */
export function otherKindOfName(name: string): string | undefined {
  const compressed = /\.(?:jsonl|ndjson|json|csv|parquet)\.(bz2|xz|zip|zst)$/i.exec(name);
  const compression = compressed && COMPRESSIONS.find((c) => c.extension === compressed[1].toLowerCase());
  if (compression) return compressedMessage(compression);
  if (/\.parquet\.gz$/i.test(name))
    return 'The file is a Parquet file compressed with gzip: Parquet compresses its own pages, so decompress it (`gunzip -k FILE.gz`) and upload the `.parquet`.';
  if (/\.(?:arrow|feather|ipc)$/i.test(name)) return ARROW_MESSAGE;
  if (/\.tsv$/i.test(name))
    return 'The file is tab-separated (TSV); the service reads comma-separated CSV. Save it as CSV: `pd.read_csv(path, sep="\\t").to_csv("train.csv", index=False)`.';
  if (/\.xlsx?$/i.test(name))
    return 'The file is an Excel workbook; the service reads JSON Lines, JSON, CSV or Parquet. Save the sheet as *CSV UTF-8 (Comma delimited)*, or `pd.read_excel(path).to_csv("train.csv", index=False)`.';
  return undefined;
}
