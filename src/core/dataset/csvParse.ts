// The CSV parser, in one module bundled on its own (dist/csv-parse.js) and loaded with the first CSV file.
export { parse } from 'csv-parse';
