"""The Job Runtime driven by real clients: the official openai client and boto3's sagemakerjobruntime client, against
the emulator's running job and against the local job runtime of `mtrl signal --local` (through agents in agents/); and
the paths and error codes both serve, held to the service model botocore ships.

Usage: python job_runtime_clients.py <repository root>
Prints one line per step ("ok <step>" or "FAIL <step>: <why>"), then one JSON line {"passed": n, "failed": n}.
Each step stands alone: one failing does not stop the others.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import uuid

import boto3
import botocore.session
from botocore.config import Config
import openai
from botocore.exceptions import ClientError

ROOT = sys.argv[1]
# How much longer than on an idle machine an answer may take: scripts/boto3.mjs passes the factor the UI checks' ceilings use.
SCALE = float(os.environ.get("MTRL_WAIT_SCALE", "2"))
TIMEOUTS = Config(connect_timeout=60 * SCALE, read_timeout=60 * SCALE)
NODE = os.environ.get("NODE", "node")  # scripts/boto3.mjs passes the node that runs it
CLI = os.path.join(ROOT, "dist/cli.js")
AGENTS = os.path.join(ROOT, "test/python/agents")
DATA = os.path.join(ROOT, "test/fixtures/datasets/training-data.jsonl")
# The seeded job that stays InProgress at --speed 1, and one the account does not run.
JOB = "arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/wordle-gptoss20b-grpo-lr-sweep"
NO_JOB = "arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/no-such-job"
TOOLS = [{"type": "function", "function": {"name": "guess_word", "parameters": {"type": "object", "properties": {"guess": {"type": "string"}}, "required": ["guess"]}}}]
WORDLE = [{"role": "user", "content": "Guess the 5-letter word"}]


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def start_emulator():
    child = subprocess.Popen([NODE, CLI, "emulator", "--json", "--speed", "1"], stdout=subprocess.PIPE, text=True)
    for line in child.stdout:
        if line.startswith("{"):
            return child, json.loads(line)["url"]
    raise RuntimeError("the emulator exited before listening")


def job_headers(trajectory):
    return {"X-Amzn-SageMaker-Job-Arn": JOB, "X-Amzn-SageMaker-Trajectory-Id": trajectory}


def emulator_openai_streaming(url):
    client = openai.OpenAI(base_url=f"{url}/v1", api_key="bearer", default_headers=job_headers(f"t-{uuid.uuid4()}"), max_retries=0)
    chunks = list(client.chat.completions.create(model="scripted-0.9", messages=WORDLE, tools=TOOLS, stream=True,
                                                 stream_options={"include_usage": True}))
    arguments = "".join(d.function.arguments or "" for c in chunks if c.choices for d in c.choices[0].delta.tool_calls or [])
    expect(json.loads(arguments).get("guess"), f"tool call arguments {arguments!r}")
    expect(chunks[-1].choices == [] and chunks[-1].usage.prompt_tokens > 0, f"last chunk {chunks[-1]}")
    finish = [c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason]
    expect(finish == ["tool_calls"], f"finish reasons {finish}")


def emulator_openai_plain(url):
    client = openai.OpenAI(base_url=f"{url}/v1", api_key="bearer", default_headers=job_headers(f"t-{uuid.uuid4()}"), max_retries=0)
    answer = client.chat.completions.create(model="scripted-0.9", messages=WORDLE, tools=TOOLS)
    expect(answer.choices[0].message.tool_calls[0].function.name == "guess_word", f"answer {answer}")
    expect(answer.usage.completion_tokens > 0, f"usage {answer.usage}")


def emulator_openai_outside_a_job(url):
    client = openai.OpenAI(base_url=f"{url}/v1", api_key="bearer", max_retries=0,
                           default_headers={"X-Amzn-SageMaker-Job-Arn": NO_JOB, "X-Amzn-SageMaker-Trajectory-Id": "t"})
    try:
        client.chat.completions.create(model="policy", messages=WORDLE, tools=TOOLS)
    except openai.BadRequestError as error:
        expect(f"Could not find job {NO_JOB}" in str(error), str(error))
        return
    raise AssertionError("a chat call naming a job the account does not run was answered")


def emulator_boto3_operations(url):
    runtime = boto3.client("sagemakerjobruntime", endpoint_url=url, region_name="us-east-1",
                           aws_access_key_id="test", aws_secret_access_key="test", config=TIMEOUTS)
    trajectory = f"t-{uuid.uuid4()}"
    body = json.dumps({"model": "scripted-0.9", "messages": WORDLE, "tools": TOOLS})
    sample = json.loads(runtime.sample(JobArn=JOB, TrajectoryId=trajectory, Body=body)["Body"].read())
    expect(sample["choices"][0]["message"]["tool_calls"], f"Sample {sample}")
    stream = runtime.sample_with_response_stream(JobArn=JOB, TrajectoryId=trajectory, Body=body)
    expect(stream["ContentType"].startswith("text/event-stream"), f"ContentType {stream['ContentType']}")
    events = [line for line in stream["Body"].iter_lines() if line.startswith(b"data:")]
    expect(events[-1] == b"data: [DONE]", f"last event {events[-1]!r}")
    runtime.complete_rollout(JobArn=JOB, TrajectoryId=trajectory, Status="ready")
    runtime.update_reward(JobArn=JOB, TrajectoryId=trajectory, Rewards=[0.5])
    for call, code in [
        (lambda: runtime.update_reward(JobArn=JOB, TrajectoryId=trajectory, Rewards=[0.5]), "ConflictException"),
        (lambda: runtime.complete_rollout(JobArn=JOB, TrajectoryId="never-sampled"), "ResourceNotFoundException"),
        (lambda: runtime.sample(JobArn=NO_JOB, TrajectoryId="t", Body=body), "ValidationException"),
    ]:
        try:
            call()
        except ClientError as error:
            expect(error.response["Error"]["Code"] == code, f"{error.response['Error']} instead of {code}")
            continue
        raise AssertionError(f"no {code}")
    try:
        runtime.sample(JobArn=NO_JOB, TrajectoryId="t", Body=body)
    except ClientError as error:
        expect(error.response["Error"]["Message"] == f"Could not find job {NO_JOB}", error.response["Error"]["Message"])


def signal_local(agent, rows, group, *more, env=None):
    """`mtrl signal --local` with this python: the report (JSON) and the rollouts kept."""
    out = os.path.join(tempfile.mkdtemp(prefix="mtrl-clients-"), "rollouts.jsonl")
    args = [NODE, CLI, "signal", "--local", os.path.join(AGENTS, agent), "--data", DATA,
            "--rows", str(rows), "--group-size", str(group), "--policy", "emulator:0.5", "--python", sys.executable,
            "--timeout", str(round(120 * SCALE)), "--transcripts-out", out, "--store", os.path.dirname(out) + "/store", "--json", *more]
    done = subprocess.run(args, capture_output=True, text=True, timeout=600 * SCALE, env={**os.environ, **(env or {})})
    expect(done.returncode in (0, 1), f"exit {done.returncode}: {done.stderr[-2000:]}")
    report = json.loads(done.stdout.strip().splitlines()[-1])
    with open(out) as f:
        rollouts = [json.loads(line) for line in f if line.strip()]
    expect(report.get("problem") is None, f"problem: {report.get('problem')}")
    expect(len(rollouts) == rows * group, f"{len(rollouts)} rollouts")
    for r in rollouts:
        expect(r["status"] == "completed", f"{r['id']}: {r['status']} {r.get('error')}")
        expect(r["turns"] and r["turns"][0]["toolCalls"][0]["name"] == "guess_word", f"{r['id']}: turns {r['turns'][:1]}")
    return report, rollouts


def exact_tokens(report, rollouts):
    """The runtime's tokens per rollout equal what the policy's usage told the agents, to the token."""
    n = len(rollouts)
    prefill = sum(r["metrics"]["prompt_tokens"] for r in rollouts) / n
    sample = sum(r["metrics"]["completion_tokens"] for r in rollouts) / n
    got = report["tokensPerRollout"]
    expect(prefill > 0 and abs(got["prefill"] - prefill) < 1e-9 and abs(got["sample"] - sample) < 1e-9,
           f"runtime counted {got}, the agents were told prefill {prefill}, sample {sample}")


def local_openai_streaming():
    report, rollouts = signal_local("openai_agent.py", 4, 4, env={"AGENT_CALLS": "stream"})
    exact_tokens(report, rollouts)
    expect(all(r["metrics"]["usage_chunks"] == len(r["turns"]) for r in rollouts), "one usage chunk per model call")


def local_openai_streaming_without_usage():
    report, rollouts = signal_local("openai_agent.py", 2, 2, env={"AGENT_CALLS": "stream-no-usage"})
    expect(all(r["metrics"]["usage_chunks"] == 0 for r in rollouts), "a usage chunk reached an agent that did not ask")
    expect(report["tokensPerRollout"]["prefill"] > 0 and report["tokensPerRollout"]["sample"] > 0, f"tokens {report['tokensPerRollout']}")


def local_openai_plain():
    report, rollouts = signal_local("openai_agent.py", 2, 2, env={"AGENT_CALLS": "plain"})
    exact_tokens(report, rollouts)


def local_fixed_endpoint_sdk_headers_concurrency_4():
    report, rollouts = signal_local("fixed_endpoint_agent.py", 4, 4, "--endpoint-env", "RFT_RUNTIME_ENDPOINT", "--concurrency", "4")
    exact_tokens(report, rollouts)


def local_boto3_operations():
    report, rollouts = signal_local("boto3_agent.py", 2, 2)
    for r in rollouts:
        expect(isinstance(r.get("reward"), (int, float)), f"{r['id']}: no reward from UpdateReward")
        refused = r["metrics"]["refused"]
        expect(refused["unknown trajectory"].startswith("ResourceNotFoundException: "), f"{r['id']}: {refused}")
        other = r["jobArn"].rsplit("/", 1)[0] + "/no-such-job"
        expect(refused["another job"] == f"ValidationException: Could not find job {other}", f"{r['id']}: {refused}")
        expect(len(r["turns"]) == r["metrics"]["guesses"] or len(r["turns"]) == r["metrics"]["guesses"] + 1, f"{r['id']}: turns")


def service_model_as_served():
    """The operations' paths and the error codes with their HTTP status that both runtimes serve (jobRuntimeApi.ts)
    are the published service model's, as botocore ships it."""
    model = botocore.session.get_session().get_service_model("sagemakerjobruntime")
    expect(model.api_version == "2026-02-01", f"API version {model.api_version}")
    with open(os.path.join(ROOT, "src/core/signal/jobRuntimeApi.ts")) as f:
        source = f.read()
    block = lambda name: source.split(f"export const {name}", 1)[1].split("}", 1)[0]
    served = dict(re.findall(r"'(/[a-z-]+)': '(\w+)'", block("OPERATION_PATHS")))
    published = {model.operation_model(op).http["requestUri"]: op for op in model.operation_names}
    expect(served == published, f"served {served}, published {published}")
    errors = {int(status): name for name, status in re.findall(r"(\w+): (\d+)", block("JOB_RUNTIME_ERRORS"))}
    shapes = {e.metadata["error"]["httpStatusCode"]: e.name for op in model.operation_names for e in model.operation_model(op).error_shapes}
    expect(errors == shapes, f"served {errors}, published {shapes}")


STEPS = [service_model_as_served, emulator_openai_streaming, emulator_openai_plain, emulator_openai_outside_a_job, emulator_boto3_operations,
         local_openai_streaming, local_openai_streaming_without_usage, local_openai_plain,
         local_fixed_endpoint_sdk_headers_concurrency_4, local_boto3_operations]

if __name__ == "__main__":
    print(f"openai {openai.__version__}, boto3 {boto3.__version__}", flush=True)
    emulator, url = start_emulator()
    passed = failed = 0
    try:
        for step in STEPS:
            try:
                step(url) if step.__name__.startswith("emulator_") else step()
                print(f"ok {step.__name__}", flush=True)
                passed += 1
            except Exception as error:  # every failure is reported; the other steps still run
                print(f"FAIL {step.__name__}: {type(error).__name__}: {error}", flush=True)
                failed += 1
    finally:
        emulator.kill()
        emulator.wait()
    print(json.dumps({"passed": passed, "failed": failed}), flush=True)
    sys.exit(1 if failed else 0)
