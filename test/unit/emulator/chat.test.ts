import assert from 'node:assert/strict';
import { WordleGame } from '../../../src/core/environments/wordle';
import { TRAIN_ANSWERS } from '../../../src/emulator/answers';
import { skillOfModel } from '../../../src/emulator/chat';
import { Random } from '../../../src/emulator/random';
import { firstMessage } from '../../../src/emulator/refund/agent';
import { RefundDesk, REFUND_TOOLS } from '../../../src/emulator/refund/desk';
import { refundRows, ticketOf } from '../../../src/emulator/refund/tickets';
import { withEmulator } from './helpers';

interface Message {
  role: string;
  content: string | null;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/** The parts of an OpenAI chat completion (or error) the tests read. */
interface Completion {
  object?: string;
  choices: { message: Message; finish_reason: string }[];
  usage: { prompt_tokens: number; completion_tokens: number };
  error: { type: string; message: string };
}

const toolsOf = (names: readonly string[]) =>
  names.map((name) => ({ type: 'function', function: { name, parameters: { type: 'object' } } }));

async function complete(url: string, body: object): Promise<{ status: number; json: Completion }> {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer any-token' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Completion };
}

/** A stand-in agent loop (a test fixture, not product code): asks the model, runs the tool it calls, until it answers. */
async function runAgent(url: string, model: string, first: string, tools: readonly string[], run: (name: string, args: string) => string) {
  const messages: Message[] = [
    { role: 'system', content: 'You are an agent.' },
    { role: 'user', content: first },
  ];
  for (let i = 0; i < 12; i++) {
    const { status, json } = await complete(url, { model, messages, tools: toolsOf(tools) });
    assert.equal(status, 200, JSON.stringify(json));
    const choice = json.choices[0];
    assert.equal(json.object, 'chat.completion');
    assert.ok(json.usage.prompt_tokens > 0 && json.usage.completion_tokens > 0);
    messages.push(choice.message);
    if (choice.finish_reason === 'stop') return messages;
    assert.equal(choice.finish_reason, 'tool_calls');
    for (const call of choice.message.tool_calls ?? [])
      messages.push({ role: 'tool', tool_call_id: call.id, content: run(call.function.name, call.function.arguments) });
  }
  return messages;
}

describe('emulator: the scripted policy as OpenAI-compatible chat completions', function () {
  this.timeout(60_000);

  it('works refund tickets with tool calls, better at a higher skill', async () => {
    await withEmulator({ history: false }, async (emulator) => {
      const rows = refundRows('eval').slice(0, 16);
      const meanReward = async (model: string) => {
        let sum = 0;
        for (const [i, row] of rows.entries()) {
          const desk = new RefundDesk(ticketOf(row.prompt));
          const first = firstMessage(row.prompt, new Random(`chat-test-${i}`));
          const messages = await runAgent(emulator.url, model, first, REFUND_TOOLS, (name, args) => JSON.stringify(desk.call(name, args)));
          assert.ok(messages.some((m) => m.tool_calls?.some((c) => (REFUND_TOOLS as readonly string[]).includes(c.function.name))));
          sum += desk.reward();
        }
        return sum / rows.length;
      };
      const [low, high] = [await meanReward('scripted-0'), await meanReward('scripted-1')];
      assert.ok(high > low + 0.15, `skill 1 ${high} vs skill 0 ${low}`);
      assert.equal(emulator.requests.get('openai:ChatCompletions')! > 32, true);
    });
  });

  it('plays Wordle through guess_word from the feedback alone, better at a higher skill', async () => {
    await withEmulator({ history: false }, async (emulator) => {
      const answers = TRAIN_ANSWERS.slice(0, 16);
      const solved = async (model: string) => {
        let wins = 0;
        for (const answer of answers) {
          const game = new WordleGame(answer);
          await runAgent(
            emulator.url,
            model,
            'Guess the 5-letter word',
            ['guess_word'],
            (_name, args) => game.guess(JSON.parse(args).guess).feedback,
          );
          if (game.status === 'solved') wins++;
        }
        return wins;
      };
      const [low, high] = [await solved('scripted:0'), await solved('scripted:1')];
      assert.ok(high >= 14 && high > low + 6, `skill 1 solved ${high}, skill 0 ${low} of 16`);
    });
  });

  it('answers a conversation it cannot play, or one without a user message, with an OpenAI-style 400', async () => {
    await withEmulator({ history: false }, async (emulator) => {
      const other = await complete(emulator.url, { model: 'scripted', messages: [{ role: 'user', content: 'Write a poem.' }] });
      assert.equal(other.status, 400);
      assert.equal(other.json.error.type, 'invalid_request_error');
      assert.match(other.json.error.message, /Wordle.*refund desk/);
      assert.equal((await complete(emulator.url, { messages: [] })).status, 400);
    });
  });

  it("refuses a support agent's conversation whose tools are not the desk's, even on a ticket naming an order: it never calls a tool the agent lacks", async () => {
    await withEmulator({ history: false }, async (emulator) => {
      const ticket = [{ role: 'user', content: 'Ticket T-17: my order ORD-12345 arrived broken, I want my money back.' }];
      const cases = [
        { tools: toolsOf(['lookup_order', 'issue_refund', 'escalate']), messages: ticket },
        { tools: toolsOf(['lookup_order', 'issue_refund']), messages: ticket },
        { tools: toolsOf(['guess_word', 'search_web']), messages: [{ role: 'user', content: 'Guess the 5-letter word' }] },
        { messages: ticket },
        { tools: toolsOf(['guess_word']), messages: ticket },
      ];
      for (const body of cases) {
        const answer = await complete(emulator.url, { model: 'scripted', ...body });
        assert.equal(answer.status, 400, JSON.stringify(body));
        assert.match(answer.json.error.message, /^The emulator's scripted policy does not play this conversation/);
      }
      const wordleByText = await complete(emulator.url, {
        model: 'scripted',
        messages: [{ role: 'user', content: 'Guess the 5-letter word' }],
      });
      assert.equal(wordleByText.status, 200, 'a Wordle agent playing by text alone still plays');
    });
  });

  it('keeps the skills of model names', () => {
    assert.deepEqual(['scripted', 'scripted-0.9', 'scripted:0.2', 'gpt-oss-20b', 'scripted-7'].map(skillOfModel), [0.5, 0.9, 0.2, 0.5, 1]);
  });
});
