import { strict as assert } from 'node:assert';
import { rendererFor } from '../../../../../webview/replay/renderers';
import { genericRenderer, taskTitle } from '../../../../../webview/replay/renderers/generic';
import { wordleRenderer } from '../../../../../webview/replay/renderers/wordle';
import type { Transcript } from '../../../../../src/core/transcript/model';

const transcript = (env?: Transcript['env'], prompt = 'Resolve the outage.\nCustomer says: no internet'): Transcript => ({
  id: 't1',
  task: { prompt },
  groupKey: 'g',
  status: 'completed',
  turns: [],
  source: 'trace',
  env,
});

describe('renderer choice', () => {
  it('draws a Wordle transcript with the tiles and anything else with the generic view', () => {
    assert.equal(rendererFor(transcript({ pack: 'wordle', label: 'CRANE' })), wordleRenderer);
    assert.equal(rendererFor(transcript()), genericRenderer);
    assert.equal(rendererFor(transcript({ pack: 'sql' })), genericRenderer, 'a pack without a renderer falls back');
  });

  it('titles a task by its pack label, else its first non-empty line', () => {
    assert.equal(taskTitle(transcript()), 'Resolve the outage.');
    assert.equal(taskTitle(transcript(undefined, '\n  \n  Fix the query  \nmore')), 'Fix the query');
    assert.equal(taskTitle(transcript({ pack: 'support', label: 'ticket 7' })), 'ticket 7');
    assert.equal(wordleRenderer.title(transcript({ pack: 'wordle', label: 'crane' })), 'CRANE');
  });

  it('opens a transcript whole and a game at its start', () => {
    assert.equal(genericRenderer.opensAt, 'end');
    assert.equal(wordleRenderer.opensAt, 'start');
  });
});
