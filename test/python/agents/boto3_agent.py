"""TEST FIXTURE ONLY: an agent that speaks the Job Runtime API itself with boto3's sagemakerjobruntime client at the
payload's endpoint: Sample for its first turn, SampleWithResponseStream after, then CompleteRollout and UpdateReward
(what the SDK's decorator posts). It returns no reward: the runtime must take it from UpdateReward. It also returns the
error codes boto3 read from two calls the runtime must refuse, as the service does.
"""

import json

import boto3
from botocore.exceptions import ClientError
from wordle_env import TOOLS, Game

from bedrock_agentcore.runtime import BedrockAgentCoreApp  # not installed here: the runner stubs it

app = BedrockAgentCoreApp()


def streamed_message(body):
    """The assistant message spelled by a stream of server-sent events."""
    calls = {}
    for line in body.iter_lines():
        line = line.decode().strip()
        if not line.startswith("data:") or line[5:].strip() == "[DONE]":
            continue
        chunk = json.loads(line[5:])
        for d in (chunk["choices"][0]["delta"].get("tool_calls") if chunk.get("choices") else None) or []:
            c = calls.setdefault(d["index"], {"id": None, "type": "function", "function": {"name": "", "arguments": ""}})
            c["id"] = d.get("id") or c["id"]
            c["function"]["name"] += d.get("function", {}).get("name") or ""
            c["function"]["arguments"] += d.get("function", {}).get("arguments") or ""
    return {"role": "assistant", "content": None, "tool_calls": [calls[i] for i in sorted(calls)]} if calls else {"role": "assistant", "content": ""}


@app.entrypoint
def handle(payload):
    metadata = payload["metadata"]
    job, trajectory = metadata["job_arn"], metadata["trajectory_id"]
    runtime = boto3.client("sagemakerjobruntime", endpoint_url=metadata["endpoint"], region_name=metadata["region"],
                           aws_access_key_id="test", aws_secret_access_key="test")
    game = Game(payload)
    messages = [{"role": "user", "content": game.first_message(trajectory)}]
    while not game.over():
        body = json.dumps({"model": "policy", "messages": messages, "tools": TOOLS})
        if len(messages) == 1:
            answer = runtime.sample(JobArn=job, TrajectoryId=trajectory, Body=body)
            message = json.loads(answer["Body"].read())["choices"][0]["message"]
        else:
            message = streamed_message(runtime.sample_with_response_stream(JobArn=job, TrajectoryId=trajectory, Body=body)["Body"])
        messages.append(message)
        if not message.get("tool_calls"):
            break
        for c in message["tool_calls"]:
            messages.append({"role": "tool", "tool_call_id": c["id"], "content": game.guess(c["function"]["arguments"])})
    runtime.complete_rollout(JobArn=job, TrajectoryId=trajectory, Status="ready")
    runtime.update_reward(JobArn=job, TrajectoryId=trajectory, Rewards=[game.reward()])
    return {"metrics": {"guesses": game.n, "refused": refusals(runtime, job, trajectory)}}


def refusals(runtime, job, trajectory):
    """The error code and message of a report for a trajectory the job never had, and of a Sample for another job."""
    other = job.rsplit("/", 1)[0] + "/no-such-job"
    said = {}
    for name, call in [("unknown trajectory", lambda: runtime.complete_rollout(JobArn=job, TrajectoryId="never-sampled", Status="ready")),
                       ("another job", lambda: runtime.sample(JobArn=other, TrajectoryId=trajectory, Body=json.dumps({"messages": []})))]:
        try:
            call()
            said[name] = "answered"
        except ClientError as error:
            said[name] = f"{error.response['Error']['Code']}: {error.response['Error']['Message']}"
    return said
