// An S3 address is text, parsed the same by the wizard, the upload, the CLI and the S3 layer: it lives below all of them.

export interface S3Location {
  bucket: string;
  key: string;
}

/** `s3://bucket/key` → { bucket, key }, or undefined when it is not an S3 URI. */
export function parseS3Uri(uri: string): S3Location | undefined {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(uri.trim());
  return match ? { bucket: match[1], key: match[2] } : undefined;
}

export function s3Uri(location: S3Location): string {
  return `s3://${location.bucket}/${location.key}`;
}

/** The folder above `prefix` ("a/b/" → "a/", "a/" → ""). */
export function parentPrefix(prefix: string): string {
  const trimmed = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  const cut = trimmed.lastIndexOf('/');
  return cut < 0 ? '' : trimmed.slice(0, cut + 1);
}
