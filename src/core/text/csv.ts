// CSV files are opened in spreadsheets, which run a cell starting with `=`, `+`, `-`, `@`, tab or CR as a formula.

const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell: numbers as they are; text that a spreadsheet would run as a formula gets a leading `'` (OWASP's rule
 * against CSV injection), and text with a comma, quote or line break is quoted.
 */
export function csvCell(value: string | number | boolean | undefined | null): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
