import type { Transcript } from '../../../src/core/transcript/model';
import { genericRenderer } from './generic';
import type { TranscriptRenderer } from './types';
import { wordleRenderer } from './wordle';

/** The packs that draw their own rollouts; a new one is one file and one line here. */
const RENDERERS: readonly TranscriptRenderer[] = [wordleRenderer];

/** The renderer of the transcript's environment pack, else the generic transcript view. */
export function rendererFor(transcript: Pick<Transcript, 'env'>): TranscriptRenderer {
  const pack = transcript.env?.pack;
  return (pack !== undefined && RENDERERS.find((r) => r.pack === pack)) || genericRenderer;
}
