// The report file in Firefox: Debian's firefox-esr, headless, from file://. playwright-core cannot drive stock Firefox and
// `--screenshot` shoots at the load event, so a test-only wrapper page frames the report, waits until it has drawn and
// played a rollout, and tells a local server what it saw; the server then ends the wrapper's load and Firefox shoots.
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { ceiling } from '../../host/lib/ceiling';
import { supportRecords } from '../features/replay/supportRollouts';
import { pixelStats } from './png';
import { buildReportBundle, run } from './reportBrowser';

const firefox = ['firefox-esr', 'firefox']
  .flatMap((name) => (process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, name)))
  .find((file) => existsSync(file));

/** What the wrapper saw in the framed report once it played a rollout. */
interface Seen {
  groups: number;
  counts: string;
  player: string;
  background: string;
  firstGroupTitle: string;
  injected: number;
  error?: string;
}

/** The test's own server: holds the wrapper's load until it reports, and records every other request (none may come). */
class Witness {
  readonly hits: string[] = [];
  private seen?: (s: Seen) => void;
  private readonly server = http.createServer((req, res) => void this.answer(req, res));

  async start(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  /** Resolves with the wrapper's report, or fails at the ceiling. */
  next(): Promise<Seen> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the page in Firefox never drew the report')), ceiling(60_000));
      this.seen = (s) => (clearTimeout(timer), resolve(s));
    });
  }

  private async answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/hold') await new Promise<void>((resolve) => (this.release = resolve));
    else if (url.pathname === '/seen') {
      this.seen?.(JSON.parse(url.searchParams.get('json') ?? '{}'));
      this.release?.();
    } else this.hits.push(url.pathname);
    // No answer kept: the profile serves every shot, and a later page must ask again.
    res.writeHead(200, { 'content-type': 'image/gif', 'cache-control': 'no-store' }).end(Buffer.from('R0lGODlhAQABAAAAACw=', 'base64'));
  }

  private release?: () => void;

  close(): void {
    this.release?.();
    this.server.closeAllConnections();
    this.server.close();
  }
}

/** A page (no CSP of its own) framing the report; it plays the first group's first rollout until `played` shows, then reports. */
function wrapper(report: string, port: number, played: string): string {
  const script = `
const say = (seen) => { new Image().src = 'http://127.0.0.1:${port}/seen?json=' + encodeURIComponent(JSON.stringify(seen)); };
const started = Date.now();
const until = (found, then) => {
  const d = document.getElementById('report').contentDocument;
  const got = d && found(d);
  if (got) return then(d, got);
  if (Date.now() - started > 45000) return say({ error: 'timed out', html: d ? d.body.innerHTML.slice(0, 300) : 'no document' });
  setTimeout(() => until(found, then), 100);
};
until((d) => d.querySelector('.group-row[data-group]'), (d, group) => {
  group.click();
  until((d) => d.querySelector('.rollout-row[data-rollout]'), (d, rollout) => {
    rollout.click();
    until((d) => (d.querySelector('.players')?.textContent ?? '').includes(${JSON.stringify(played)}), (d) => say({
      groups: d.querySelectorAll('.group-row[data-group]').length,
      counts: d.querySelector('.report-counts').textContent,
      player: d.querySelector('.players').textContent.slice(0, 600),
      background: getComputedStyle(d.body).backgroundColor,
      firstGroupTitle: group.title,
      injected: d.querySelectorAll('#injected').length,
    }));
  });
});`;
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><style>:root{color-scheme:light dark}html,body{margin:0;height:100%}iframe{border:0;width:100%;height:100%}</style></head>
<body><iframe id="report" src="${path.basename(report)}"></iframe><img src="http://127.0.0.1:${port}/hold" alt="" style="position:absolute;width:1px">
<script>${script}</script></body></html>`;
}

/** Every pref a shot sets, each written every time: the profile is reused, and Firefox keeps a pref from an earlier user.js. */
const LIGHT = { 'ui.systemUsesDarkTheme': 0, 'layout.css.prefers-color-scheme.content-override': 2 };

/**
 * Firefox headless, its screenshot of `page` at 1280×900 (framed file:// pages readable by their parent). One profile
 * serves every shot: Firefox's first start on a new profile costs 0.7 s more CPU than a start on one it made before.
 */
async function shoot(profile: string, page: string, png: string, prefs: Partial<typeof LIGHT> = {}): Promise<void> {
  const all = { 'security.fileuri.strict_origin_policy': false, 'browser.sessionstore.resume_from_crash': false, ...LIGHT, ...prefs };
  writeFileSync(
    path.join(profile, 'user.js'),
    Object.entries(all)
      .map(([k, v]) => `user_pref(${JSON.stringify(k)}, ${v});\n`)
      .join(''),
  );
  const args = ['--headless', '--no-remote', '-profile', profile, '--screenshot', png, '--window-size=1280,900', pathToFileURL(page).href];
  await promisify(execFile)(firefox!, args, { timeout: ceiling(120_000) });
}

const results = path.resolve(__dirname, '../../../test-results');

describe('mtrl report in Firefox (firefox-esr --headless), from file://', function () {
  this.timeout(ceiling(240_000));
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-report-firefox-'));
  const witness = new Witness();
  const profile = mkdtempSync(path.join(tmpdir(), 'mtrl-firefox-'));
  let port = 0;

  before(async function () {
    if (!firefox) {
      console.log('    SKIPPED: no firefox-esr or firefox on PATH (apt-get install -y firefox-esr runs these checks)');
      this.skip();
    }
    await buildReportBundle();
    port = await witness.start();
    mkdirSync(results, { recursive: true });
  });
  after(() => witness.close());

  it("shows 40 support rollouts, the groups, a task's prompt and a played rollout's tool calls, light and dark; the screenshot is no blank page", async () => {
    const log = path.join(dir, 'support.log');
    writeFileSync(log, supportRecords(10, 4).join('\n') + '\n');
    const report = path.join(dir, 'support.html');
    assert.equal((await run('report', log, '--html', report, '--scan')).code, 0);
    const page = path.join(dir, 'support-wrapper.html');
    writeFileSync(page, wrapper(report, port, 'take_support_action'));
    const blank = path.join(dir, 'blank.html');
    writeFileSync(blank, '<!DOCTYPE html><html><body></body></html>');

    const light = path.join(dir, 'light.png');
    const [seen] = await Promise.all([witness.next(), shoot(profile, page, light)]);
    assert.equal(seen.error, undefined, JSON.stringify(seen));
    assert.equal(seen.counts, '40 rollouts · 10 groups');
    assert.equal(seen.groups, 10);
    assert.match(seen.firstGroupTitle, /^Resolve ticket 0: the customer's internet is down\./);
    assert.match(seen.player, /take_support_action/);
    assert.match(seen.player, /check_outage/, "the call's arguments");

    const dark = path.join(dir, 'dark.png');
    const darkPrefs = { 'ui.systemUsesDarkTheme': 1, 'layout.css.prefers-color-scheme.content-override': 0 };
    const [seenDark] = await Promise.all([witness.next(), shoot(profile, page, dark, darkPrefs)]);
    assert.equal(seenDark.background, 'rgb(31, 31, 31)', "the reader's dark setting gives the dark colours");

    const empty = path.join(dir, 'blank.png');
    await shoot(profile, blank, empty);
    const [drawn, drawnDark, nothing] = [light, dark, empty].map((f) => pixelStats(readFileSync(f)));
    assert.deepEqual([drawn.width, drawn.height], [1280, 900]);
    assert.ok(nothing.luminanceSd < 1 && nothing.inked < 0.01, `the blank page is not blank: ${JSON.stringify(nothing)}`);
    for (const s of [drawn, drawnDark])
      assert.ok(
        s.luminanceSd > 10 && s.inked > 0.05,
        `the screenshot looks blank: ${JSON.stringify(s)} (a blank page: ${JSON.stringify(nothing)})`,
      );
    copyFileSync(light, path.join(results, 'report-firefox-light.png'));
    copyFileSync(dark, path.join(results, 'report-firefox-dark.png'));
    assert.deepEqual([...witness.hits], [], 'the report asked the network for nothing');
  });

  it("refuses the network by its CSP: an <img> put into the file and one in a rollout's text ask the local server nothing", async () => {
    const payload = `<img src=http://127.0.0.1:${port}/rollout-text>`;
    const record = JSON.stringify({
      mtrl_rollout: 1,
      trajectory_id: 'hostile-1',
      prompt: `Task ${payload}`,
      step: 1,
      reward: 0.5,
      turns: [{ thinking: `Thinking ${payload}`, tool_calls: [{ name: 'lookup', arguments: '{}', result: payload }] }],
    });
    const log = path.join(dir, 'hostile.log');
    writeFileSync(log, `${record}\n`);
    const report = path.join(dir, 'hostile.html');
    assert.equal((await run('report', log, '--html', report)).code, 0);
    // What an escaping bug would let through: a real element in the file, that only the CSP stops.
    const html = readFileSync(report, 'utf8').replace(
      '<div id="root"></div>',
      `<div id="root"></div><img id="injected" src="http://127.0.0.1:${port}/injected">`,
    );
    assert.match(html, /id="injected"/);
    writeFileSync(report, html);
    const page = path.join(dir, 'hostile-wrapper.html');
    writeFileSync(page, wrapper(report, port, 'Thinking <img'));
    const png = path.join(dir, 'hostile.png');
    const [seen] = await Promise.all([witness.next(), shoot(profile, page, png)]);
    assert.equal(seen.error, undefined, JSON.stringify(seen));
    assert.equal(seen.injected, 1, 'the injected element is in the page');
    assert.ok(seen.firstGroupTitle.includes(payload), "the rollout's text shown as text");
    assert.deepEqual([...witness.hits], [], 'nothing reached the server');

    // The control: the same file without its CSP asks for the element at once, so the silence above is the CSP's.
    const open = path.join(dir, 'hostile-without-csp.html');
    writeFileSync(open, html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '').replace('/injected', '/injected-without-csp'));
    await shoot(profile, open, path.join(dir, 'without-csp.png'));
    assert.ok(witness.hits.includes('/injected-without-csp'), `Firefox never asked the server: ${JSON.stringify(witness.hits)}`);
  });
});
