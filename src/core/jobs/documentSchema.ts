import type { ErrorObject, ValidateFunction } from 'ajv';

type AjvModule = typeof import('./ajv');
let ajvModule: AjvModule | undefined;

/** ajv (130 KB) loads with the first schema, not at activation: the build keeps './ajv' in dist/ajv.js. */
function ajv(): AjvModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  ajvModule ??= require('./ajv') as AjvModule;
  return ajvModule;
}

/** Compiled validators of the service's config schemas, one per (category, version): the schema of a version never changes. */
export class DocumentSchemas {
  private readonly validators = new Map<string, ValidateFunction>();

  has(category: string, version: string): boolean {
    return this.validators.has(`${category}@${version}`);
  }

  add(category: string, version: string, schema: Record<string, unknown>): void {
    // The service's schema may declare draft-07 or 2020-12; unknown keywords are annotations, not errors.
    const { Ajv, Ajv2020 } = ajv();
    const compiler = String(schema.$schema ?? '').includes('2020-12')
      ? new Ajv2020({ allErrors: true, strict: false })
      : new Ajv({ allErrors: true, strict: false });
    this.validators.set(`${category}@${version}`, compiler.compile(schema));
  }

  /** Sentences naming each offending field; empty when valid. Throws when the schema was never added. */
  validate(category: string, version: string, document: unknown): string[] {
    const validator = this.validators.get(`${category}@${version}`);
    if (!validator) throw new Error(`No schema ${version} loaded for ${category}.`);
    return validator(document) ? [] : (validator.errors ?? []).map(describeSchemaError);
  }
}

/** "TrainingConfig.HyperParameters: must NOT have additional property sampling_temperature". */
function describeSchemaError(e: ErrorObject): string {
  const where = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : 'document';
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'additionalProperties') return `${where}: unexpected field ${String(params.additionalProperty)}`;
  if (e.keyword === 'required') return `${where}: missing ${String(params.missingProperty)}`;
  if (e.keyword === 'enum') return `${where}: must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
  return `${where}: ${e.message ?? e.keyword}`;
}
