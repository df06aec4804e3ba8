"""TEST FIXTURE ONLY: an agent with a fixed endpoint (RFT_RUNTIME_ENDPOINT, normalised to end in /v1 as AWS's EKS
example does) that names its rollout on every model call with the two headers the SDK's wrap_model adds
(sagemaker/train/rft/headers.py make_inference_headers: X-Amzn-SageMaker-Job-Arn, X-Amzn-SageMaker-Trajectory-Id),
streaming with usage through the official openai client. Many run at once: only the headers tell them apart.
"""

import os

import openai
from wordle_env import TOOLS, Game

from bedrock_agentcore.runtime import BedrockAgentCoreApp  # not installed here: the runner stubs it

app = BedrockAgentCoreApp()
ENDPOINT = os.environ.get("RFT_RUNTIME_ENDPOINT", "https://job-runtime.sagemaker.us-east-1.api.aws").rstrip("/")
BASE_URL = ENDPOINT if ENDPOINT.endswith("/v1") else ENDPOINT + "/v1"


def inference_headers(metadata):
    """As make_inference_headers: snake_case or camelCase metadata, raw values."""
    job_arn = metadata.get("job_arn") or metadata.get("jobArn")
    trajectory_id = metadata.get("trajectory_id") or metadata.get("trajectoryId") or metadata.get("rolloutId")
    headers = {}
    if job_arn:
        headers["X-Amzn-SageMaker-Job-Arn"] = job_arn
    if trajectory_id:
        headers["X-Amzn-SageMaker-Trajectory-Id"] = trajectory_id
    return headers


@app.entrypoint
def handle(payload):
    metadata = payload["metadata"]
    client = openai.OpenAI(base_url=BASE_URL, api_key="bearer-token", default_headers=inference_headers(metadata), max_retries=0)
    game = Game(payload)
    seen = {"prompt_tokens": 0, "completion_tokens": 0}
    messages = [{"role": "user", "content": game.first_message(metadata["trajectory_id"])}]
    while not game.over():
        stream = client.chat.completions.create(model="policy", messages=messages, tools=TOOLS, stream=True,
                                                stream_options={"include_usage": True})
        calls = {}
        for chunk in stream:
            if chunk.usage:
                seen["prompt_tokens"] += chunk.usage.prompt_tokens
                seen["completion_tokens"] += chunk.usage.completion_tokens
            for d in (chunk.choices[0].delta.tool_calls if chunk.choices else None) or []:
                c = calls.setdefault(d.index, {"id": None, "type": "function", "function": {"name": "", "arguments": ""}})
                c["id"] = d.id or c["id"]
                c["function"]["name"] += (d.function and d.function.name) or ""
                c["function"]["arguments"] += (d.function and d.function.arguments) or ""
        if not calls:
            break
        messages.append({"role": "assistant", "content": None, "tool_calls": [calls[i] for i in sorted(calls)]})
        for c in messages[-1]["tool_calls"]:
            messages.append({"role": "tool", "tool_call_id": c["id"], "content": game.guess(c["function"]["arguments"])})
    return {"reward": game.reward(), "metrics": seen}
