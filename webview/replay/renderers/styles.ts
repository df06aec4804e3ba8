import transcriptCss from './transcript.css';
import wordleCss from './wordle.css';

/** The renderers' stylesheets, for every app that draws transcripts (the board, the reward scores): a new one is a line here. */
export const RENDERER_STYLES: readonly string[] = [transcriptCss, wordleCss];
