type Sdk = typeof import('./sdk');

let loaded: Sdk | undefined;

/** The AWS SDK, loaded on the first call: activation and `mtrl --help` never pay for it (the bundles keep it in dist/aws-sdk.js). */
export function sdk(): Sdk {
  // A plain require: the build maps './sdk' to the separate bundle, and a static import would load it with this module.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('./sdk') as Sdk;
  return loaded;
}
