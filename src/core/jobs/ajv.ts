// The JSON Schema validators, in one module bundled on its own (dist/ajv.js) and loaded with the first schema.
export { default as Ajv } from 'ajv';
export { default as Ajv2020 } from 'ajv/dist/2020';
