/** Where an agent's own code raised, from a Python traceback in its logs: the last frame and the exception line. */
export interface RaisedAt {
  exception: string;
  /** `main.py line 57, in build_conversation`, when the traceback names a frame. */
  frame?: string;
  /** The source line of that frame, as Python printed it. */
  code?: string;
}

const FRAME = /File "([^"]+)", line (\d+), in (\S+)/;
const EXCEPTION = /^\s*([A-Za-z_][\w.]*(?:Error|Exception|Interrupt)\b(?::.*)?)$/;

/** The exception the agent raised and its innermost frame, or undefined when the lines hold no traceback. */
export function raisedAt(lines: readonly string[]): RaisedAt | undefined {
  // A traceback may arrive as one multi-line message or as one message per line.
  const all = lines.flatMap((l) => l.split(/\r?\n/));
  const start = all.findIndex((l) => /Traceback \(most recent call last\)/.test(l));
  if (start === -1) return undefined;
  let frame: string | undefined;
  let code: string | undefined;
  for (let i = start + 1; i < all.length; i++) {
    const f = FRAME.exec(all[i]);
    if (f) {
      frame = `${f[1].split('/').pop()} line ${f[2]}, in ${f[3]}`;
      code = all[i + 1] && !FRAME.test(all[i + 1]) && !EXCEPTION.test(all[i + 1]) ? all[i + 1].trim() : undefined;
      continue;
    }
    const e = EXCEPTION.exec(all[i]);
    if (e && frame) return { exception: e[1].trim(), frame, code };
  }
  return undefined;
}
