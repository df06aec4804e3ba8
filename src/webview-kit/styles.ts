import base from './base.css';

/** Adopts the shared base stylesheet, then the app's own in order (a later sheet wins a tie), as constructed stylesheets. */
export function adoptStyles(...texts: string[]): void {
  const sheets = [base, ...texts].map((text) => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(text);
    return sheet;
  });
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, ...sheets];
}
