// Reading raw `traces.json` artifacts as transcripts against a bare JSON.parse of the same texts (the files already in
// memory, so file reading, the same cost for both, does not dilute the ratio).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { prepareTranscripts, tracesIn, transcriptFromTrace } from '../src/core/rollouts';

const ACTIONS = ['check_outage', 'restart_router', 'inspect_router_lights', 'check_account_config', 'apply_config_fix', 'escalate'];

/** `count` artifacts shaped like the real support run's, each with its own ids, actions, reward and thinking. */
function artifacts(count: number): string[] {
  const fixture = JSON.parse(
    readFileSync(path.resolve(__dirname, '../test/fixtures/real-run/traces/support_traces.rollout1.raw.json'), 'utf8'),
  );
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const hex = i.toString(16).padStart(12, '0');
    const spans = fixture.spans.map((s: { name: string; context: object; attributes: Record<string, string> }, k: number) => {
      const attributes = { ...s.attributes };
      if (s.name === 'trajectory') attributes.reward = String(((i * 7) % 5) / 4);
      if (s.name === 'take_support_action')
        attributes['mlflow.spanInputs'] = JSON.stringify({ arguments: JSON.stringify({ action: ACTIONS[(i + k) % ACTIONS.length] }) });
      if (s.name.startsWith('turn-'))
        attributes['mlflow.spanOutputs'] = JSON.stringify({ thinking: `Rollout ${i}, turn ${k}: ${'reasoning '.repeat(20)}` });
      return { ...s, context: { trace_id: `2207cd19-0073-47c7-8487-${hex}`, span_id: `${k}-${hex}` }, attributes };
    });
    out.push(JSON.stringify({ spans }));
  }
  return out;
}

/** CPU milliseconds of the process (GC threads included): on a shared machine, wall time measures the neighbours. */
function time(run: () => void): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const texts = artifacts(100_000);
const bytes = texts.reduce((n, t) => n + t.length, 0);
let sink = 0;
const baseline = () => {
  for (const text of texts) sink += JSON.parse(text) ? 1 : 0;
};
const transcripts = () => {
  for (const text of texts) for (const trace of tracesIn(JSON.parse(text))) sink += transcriptFromTrace(trace)?.turns.length ?? 0;
};
/** What the board needs before its first group: each transcript prepared too (pack recognized, task keyed, solved). */
const prepared = () => {
  for (const text of texts) sink += prepareTranscripts(tracesIn(JSON.parse(text)).flatMap((t) => transcriptFromTrace(t) ?? [])).length;
};
for (const warm of [baseline, transcripts, prepared]) warm();
const runs = { baseline: [] as number[], transcripts: [] as number[], prepared: [] as number[] };
for (let i = 0; i < 5; i++) {
  runs.baseline.push(time(baseline));
  runs.transcripts.push(time(transcripts));
  runs.prepared.push(time(prepared));
}
// The fastest run is the least disturbed by other processes on a shared machine.
const b = Math.min(...runs.baseline);
const t = Math.min(...runs.transcripts);
console.log(
  `read ${texts.length.toLocaleString('en')} raw traces.json artifacts (${(bytes / 1e6).toFixed(1)} MB), fastest of 5 interleaved runs, CPU time:`,
);
console.log(`  JSON.parse per artifact (baseline)   ${b.toFixed(0)} ms`);
const p = Math.min(...runs.prepared);
const met = t / b <= 1.5;
if (!met) process.exitCode = 1;
console.log(`  transcripts (parse, spans, calls)    ${t.toFixed(0)} ms  ratio ${(t / b).toFixed(2)} (target ≤ 1.5) ${met ? 'ok' : 'OVER'}`);
console.log(`  transcripts prepared for the board   ${p.toFixed(0)} ms  ratio ${(p / b).toFixed(2)}`);
console.log('  (tool arguments, results and thinking are decoded when first read: a list of rollouts reads none of them)');
if (sink < 0) console.log(sink);
