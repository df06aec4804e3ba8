// The quick input of the UI checks. VS Code keeps one quick input element; closing it, it leaves it drawn but inert for a
// closing animation (class quick-input-widget-closing) that a busy machine stretches: taken for the open question there,
// a check types into nothing, reads the last question's rows or sends its Escape elsewhere.

/** The quick input that is open, never one still closing. */
export const QUICK_INPUT = '.quick-input-widget:not(.quick-input-widget-closing)';
