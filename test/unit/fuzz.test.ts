import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { caseRandom, cutPoints, mutate, splitAt } from '../fuzz/mutate';
import { minimize } from '../fuzz/minimize';
import { describeFigures, fuzz } from '../fuzz/run';
import { TARGETS, targetNamed } from '../fuzz/targets';
import { BLOCKING_TARGET, Watchdog } from '../fuzz/watchdog';
import { ceiling } from '../host/lib/ceiling';

const found = path.resolve(__dirname, '../fixtures/fuzz');

/** A short seeded run inside `npm test`; `npm run fuzz` runs thousands of cases per target. */
const CASES = 200;
/** Seconds before a case counts as a hang: far above any case's time, so only a loop reaches it. */
const BUDGET_MS = 60_000;

describe('fuzz', () => {
  it('the mutation engine is seeded: the same (seed, target, index) gives the same case, another index another', () => {
    const seeds = targetNamed('dataset-jsonl').seeds();
    const a = mutate(seeds, caseRandom(7, 'dataset-jsonl', 3));
    const b = mutate(seeds, caseRandom(7, 'dataset-jsonl', 3));
    const c = mutate(seeds, caseRandom(7, 'dataset-jsonl', 4));
    assert.deepEqual(a, b);
    assert.notDeepEqual(a.bytes, c.bytes);
  });

  it('cut points split an input into pieces that join back to it', () => {
    const random = caseRandom(1, 'cuts', 0);
    for (let n = 0; n < 200; n++) {
      const bytes = Uint8Array.from({ length: random.int(50) }, () => random.int(256));
      const cuts = cutPoints(bytes.length, random);
      assert.ok(cuts.every((c, i) => c > 0 && c < bytes.length && (i === 0 || c > cuts[i - 1])));
      assert.deepEqual(Buffer.concat(splitAt(bytes, cuts)), Buffer.from(bytes));
    }
  });

  it(`${CASES} mutated cases per target: no exception, hang, whole/split mismatch or broken message`, async function () {
    this.timeout(ceiling(600_000));
    const figures = await fuzz({
      seed: 20261201,
      cases: CASES,
      targets: TARGETS.map((t) => t.name),
      budgetMs: BUDGET_MS,
      maxBytes: 64 * 1024,
    });
    assert.deepEqual(
      figures.map((f) => f.cases),
      TARGETS.map(() => CASES),
    );
    assert.deepEqual(
      figures.flatMap((f) =>
        f.failures.map((x) => `${describeFigures(f)}\n  case ${x.index} ${x.kind} (${x.steps.join(', ')}): ${x.detail}`),
      ),
      [],
    );
  });

  it('the watchdog sees a failing case: an exception is reported, not swallowed', async function () {
    this.timeout(ceiling(120_000));
    const watchdog = new Watchdog(BUDGET_MS);
    try {
      const reply = await watchdog.run({ target: 'no-such-target', bytes: new Uint8Array(), splitSeed: 0 });
      assert.equal(reply.kind, 'exception');
    } finally {
      await watchdog.close();
    }
  });

  it('the watchdog ends a case past its budget as a hang and answers the next case with a fresh worker', async function () {
    this.timeout(ceiling(120_000));
    const bytes = targetNamed('dataset-jsonl').seeds()[0];
    // A case that blocks its thread for good (a 1-ms budget on a real case raced the case on a loaded machine); the
    // budget is far above what the real case after it takes (~30 ms), and scales with the load instead of a fixed 5 s.
    const watchdog = new Watchdog(ceiling(1_000));
    try {
      assert.equal((await watchdog.run({ target: BLOCKING_TARGET, bytes, splitSeed: 0 })).kind, 'hang');
      assert.equal((await watchdog.run({ target: 'dataset-jsonl', bytes, splitSeed: 0 })).kind, 'ok', 'the next case got no fresh worker');
    } finally {
      await watchdog.close();
    }
  });

  it('minimizing keeps only removals that fail the same way', async function () {
    this.timeout(ceiling(120_000));
    const watchdog = new Watchdog(BUDGET_MS);
    try {
      const failing = { target: 'no-such-target', bytes: new Uint8Array(100).fill(7), splitSeed: 0 };
      const failure = await watchdog.run(failing);
      assert.equal((await minimize(watchdog, failing, failure)).length, 0);
      const policy = targetNamed('trust-policy').seeds()[0];
      const passing = { target: 'trust-policy', bytes: policy, splitSeed: 0 };
      assert.deepEqual(await minimize(watchdog, passing, failure), policy);
    } finally {
      await watchdog.close();
    }
  });

  it('every input the fuzzer once failed on (test/fixtures/fuzz/<target>/) now runs clean', async function () {
    this.timeout(ceiling(600_000));
    const targets = TARGETS.map((t) => t.name).filter((name) => existsSync(path.join(found, name)));
    assert.ok(targets.length > 0);
    const watchdog = new Watchdog(BUDGET_MS);
    try {
      for (const target of targets) {
        for (const name of readdirSync(path.join(found, target))) {
          const bytes = readFileSync(path.join(found, target, name));
          for (const splitSeed of [1, 2, 3]) {
            const reply = await watchdog.run({ target, bytes, splitSeed });
            assert.deepEqual(reply, { kind: 'ok' }, `${target}/${name}`);
          }
        }
      }
    } finally {
      await watchdog.close();
    }
  });
});
