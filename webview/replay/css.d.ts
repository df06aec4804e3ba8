/** CSS files are bundled as text (esbuild loader) and adopted as a constructed stylesheet. */
declare module '*.css' {
  const text: string;
  export default text;
}

/** Fonts are bundled as data: URLs (esbuild loader), for the report that is one file. */
declare module '*.ttf' {
  const url: string;
  export default url;
}
