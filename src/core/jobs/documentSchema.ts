import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';

/** Compiled validators of the service's config schemas, one per (category, version): the schema of a version never changes. */
export class DocumentSchemas {
  private readonly validators = new Map<string, ValidateFunction>();

  has(category: string, version: string): boolean {
    return this.validators.has(`${category}@${version}`);
  }

  add(category: string, version: string, schema: Record<string, unknown>): void {
    // The service's schema may declare draft-07 or 2020-12; unknown keywords are annotations, not errors.
    const ajv = String(schema.$schema ?? '').includes('2020-12') ? new Ajv2020({ allErrors: true, strict: false }) : new Ajv({ allErrors: true, strict: false });
    this.validators.set(`${category}@${version}`, ajv.compile(schema));
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
