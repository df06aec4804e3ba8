import type { ToolCall, Transcript, Turn } from '../../../src/core/transcript/model';
import { h, icon, num } from '../dom';
import { argumentSummary, readableJson } from './json';
import { section, thinkingSection } from './sections';
import type { TranscriptRenderer, TurnView } from './types';

/** The task's first line: what a person recognizes a ticket, a question or a game by. */
export function taskTitle(transcript: Transcript): string {
  return (
    transcript.env?.label ??
    (transcript.task.prompt
      .split('\n')
      .find((line) => line.trim())
      ?.trim() ||
      'task unknown')
  );
}

function toolCard(call: ToolCall, label: string): HTMLElement {
  const failed = call.error !== undefined;
  return h(
    'div',
    {
      class: `tool-call${failed ? ' failed' : ''}`,
      attrs: { role: 'group', 'aria-label': `${label}${failed ? ', failed' : ''}${call.resultNotSeen ? ', result not seen' : ''}` },
    },
    h(
      'div',
      { class: 'tool-head' },
      icon(failed ? 'error' : 'tools'),
      h('code', { class: 'tool-name' }, call.name),
      h('span', { class: 'tool-args muted' }, argumentSummary(call.arguments)),
      failed ? h('span', { class: 'badge badge-invalid' }, 'error') : null,
    ),
    h(
      'div',
      { class: 'tool-part' },
      h('span', { class: 'tool-part-label muted' }, 'arguments'),
      h('pre', { class: 'json' }, readableJson(call.arguments)),
    ),
    call.result !== undefined
      ? h(
          'div',
          { class: 'tool-part' },
          h('span', { class: 'tool-part-label muted' }, 'result'),
          h('pre', { class: 'json' }, readableJson(call.result)),
        )
      : null,
    call.resultNotSeen
      ? h(
          'p',
          { class: 'tool-result-not-seen muted' },
          icon('eye-closed'),
          " result not seen: the rollout ended after this call, and a tool's result reaches the runtime only in the next model call",
        )
      : null,
    failed ? h('p', { class: 'tool-error' }, icon('error'), ' ', call.error) : null,
  );
}

function turnItem(turn: Turn, i: number, view: TurnView): HTMLElement {
  const differs = i === view.firstDifference;
  const calls = turn.toolCalls.map((call, c) =>
    toolCard(call, `Turn ${i + 1}, tool call ${c + 1}: ${call.name} ${argumentSummary(call.arguments)}`),
  );
  return h(
    'li',
    {
      class: `turn${i === view.shown - 1 ? ' current' : ''}${differs ? ' differs' : ''}`,
      attrs: { 'data-turn': i + 1 },
    },
    h(
      'div',
      { class: 'turn-head' },
      h('strong', { class: 'turn-name' }, `Turn ${i + 1}`),
      h(
        'span',
        { class: 'muted' },
        turn.toolCalls.length ? ` · ${turn.toolCalls.length} tool call${turn.toolCalls.length === 1 ? '' : 's'}` : '',
      ),
      turn.reward !== undefined ? h('span', { class: 'badge' }, `reward ${num(turn.reward)}`) : null,
      differs ? h('span', { class: 'badge badge-differs' }, icon('diff'), ' first difference') : null,
    ),
    turn.thinking ? thinkingSection(turn.thinking, i, view) : null,
    turn.text ? h('pre', { class: 'model-text' }, turn.text) : null,
    ...calls,
  );
}

/** Any agent's rollout: the task, then each turn's thinking (folded), text and tool-call cards. */
export const genericRenderer: TranscriptRenderer = {
  opensAt: 'end',
  title: taskTitle,
  render(transcript, view) {
    const turns = transcript.turns.slice(0, view.shown).map((turn, i) => turnItem(turn, i, view));
    return h(
      'div',
      { class: 'transcript' },
      section(
        'task',
        view,
        'task',
        [icon('comment'), ' Task (first user message)'],
        h('pre', { class: 'task-text' }, transcript.task.prompt),
      ),
      turns.length
        ? h('ol', { class: 'turn-list' }, ...turns)
        : h('p', { class: 'muted' }, transcript.turns.length ? 'Press play or → to replay the turns.' : 'This rollout made no model call.'),
    );
  },
};
