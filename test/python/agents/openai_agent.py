"""TEST FIXTURE ONLY: a plain agent on the official openai client, as AWS's agent template builds it:
base_url = metadata.endpoint + "/v1". AGENT_CALLS picks how it calls: `stream` (with stream_options.include_usage),
`stream-no-usage` (the runtime must not hand it a usage chunk) or `plain` (non-streaming). It returns the tokens the
policy's usage reported to it, so the test can compare them with the runtime's count.
"""

import os

import openai
from wordle_env import TOOLS, Game

from bedrock_agentcore.runtime import BedrockAgentCoreApp  # not installed here: the runner stubs it

app = BedrockAgentCoreApp()
MODE = os.environ.get("AGENT_CALLS", "stream")


def call(client, messages, seen):
    if MODE == "plain":
        response = client.chat.completions.create(model="policy", messages=messages, tools=TOOLS)
        seen["prompt_tokens"] += response.usage.prompt_tokens
        seen["completion_tokens"] += response.usage.completion_tokens
        return response.choices[0].message.model_dump(exclude_none=True)
    extra = {"stream_options": {"include_usage": True}} if MODE == "stream" else {}
    content, calls = "", {}
    for chunk in client.chat.completions.create(model="policy", messages=messages, tools=TOOLS, stream=True, **extra):
        if chunk.usage:
            seen["prompt_tokens"] += chunk.usage.prompt_tokens
            seen["completion_tokens"] += chunk.usage.completion_tokens
        if not chunk.choices:
            seen["usage_chunks"] += 1
            continue
        delta = chunk.choices[0].delta
        content += delta.content or ""
        for d in delta.tool_calls or []:
            c = calls.setdefault(d.index, {"id": None, "type": "function", "function": {"name": "", "arguments": ""}})
            c["id"] = d.id or c["id"]
            c["function"]["name"] += (d.function and d.function.name) or ""
            c["function"]["arguments"] += (d.function and d.function.arguments) or ""
    message = {"role": "assistant", "content": content or None}
    if calls:
        message["tool_calls"] = [calls[i] for i in sorted(calls)]
    return message


@app.entrypoint
def handle(payload):
    metadata = payload["metadata"]
    client = openai.OpenAI(base_url=metadata["endpoint"] + "/v1", api_key="bearer-token", max_retries=0)
    game = Game(payload)
    seen = {"prompt_tokens": 0, "completion_tokens": 0, "usage_chunks": 0}
    messages = [{"role": "user", "content": game.first_message(metadata["trajectory_id"])}]
    while not game.over():
        message = call(client, messages, seen)
        messages.append(message)
        if not message.get("tool_calls"):
            break
        for c in message["tool_calls"]:
            messages.append({"role": "tool", "tool_call_id": c["id"], "content": game.guess(c["function"]["arguments"])})
    return {"reward": game.reward(), "metrics": seen}
