/** MLflow's own error: `{error_code, message}` with its HTTP status. */
export class MlflowError extends Error {
  constructor(
    readonly code: 'RESOURCE_DOES_NOT_EXIST' | 'INVALID_PARAMETER_VALUE' | 'ENDPOINT_NOT_FOUND',
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}
