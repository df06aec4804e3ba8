/** CSS files are bundled as text (esbuild loader) and adopted as a constructed stylesheet. */
declare module '*.css' {
  const text: string;
  export default text;
}
