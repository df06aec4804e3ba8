"""The write-up's workflow driven by boto3 (a client nobody here wrote) against the emulator.

Usage: python boto3_workflow.py <endpoint-url> <datasets-dir>
Prints one line per step ("ok <step>" or "FAIL <step>: <why>"), then one JSON line {"passed": n, "failed": n}.
A step that cannot run because an earlier one failed counts as failed.
"""

import json
import os
import sys
import time

import boto3
import botocore
from botocore.config import Config
from botocore.exceptions import ClientError

ENDPOINT, DATASETS = sys.argv[1], sys.argv[2]
REGION = "us-east-1"
ACCOUNT = "111122223333"
BUCKET = "boto3-check"
RUNTIME = f"arn:aws:bedrock-agentcore:{REGION}:{ACCOUNT}:runtime/wordle_agent-AbCdEf1234"
ROLE = f"arn:aws:iam::{ACCOUNT}:role/MtrlJobRole"
MLFLOW = f"arn:aws:sagemaker:{REGION}:{ACCOUNT}:mlflow-app/app-wordle01"
MODEL = f"arn:aws:sagemaker:{REGION}:aws:hub-content/SageMakerPublicHub/Model/openai-reasoning-gpt-oss-20b"
TRAINING = "boto3-wordle-grpo"
EVALUATION = "boto3-wordle-eval"
STOPPED = "boto3-wordle-stopped"

session = boto3.session.Session(aws_access_key_id="test", aws_secret_access_key="test", region_name=REGION)
# How much longer than on an idle machine an answer may take: scripts/boto3.mjs passes the factor the UI checks' ceilings use.
SCALE = float(os.environ.get("MTRL_WAIT_SCALE", "2"))
# botocore's 60 s read timeout, three times over, ran out once at load 60 (X3): waits scale with the load.
config = Config(
    retries={"max_attempts": 3, "mode": "standard"}, s3={"addressing_style": "path"}, connect_timeout=60 * SCALE, read_timeout=60 * SCALE
)
s3 = session.client("s3", endpoint_url=ENDPOINT, config=config)
sagemaker = session.client("sagemaker", endpoint_url=ENDPOINT, config=config)
logs = session.client("logs", endpoint_url=ENDPOINT, config=config)
agentcore_control = session.client("bedrock-agentcore-control", endpoint_url=ENDPOINT, config=config)
sns = session.client("sns", endpoint_url=ENDPOINT, config=config)
events = session.client("events", endpoint_url=ENDPOINT, config=config)
TOPIC = f"arn:aws:sns:{REGION}:{ACCOUNT}:mtrl-job-alerts"
state = {}


def channel(name, uri):
    return {"ChannelName": name, "DataSource": {"S3DataSource": {"S3DataType": "S3Prefix", "S3Uri": uri}}}


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def upload_datasets():
    s3.create_bucket(Bucket=BUCKET)
    for name in ("training-data.jsonl", "validation-data.jsonl"):
        s3.upload_file(f"{DATASETS}/{name}", BUCKET, f"wordle/{name}", ExtraArgs={"Metadata": {"source": "boto3"}})
        head = s3.head_object(Bucket=BUCKET, Key=f"wordle/{name}")
        expect(head["Metadata"] == {"source": "boto3"}, f"user metadata came back as {head['Metadata']}")
    listing = s3.list_objects_v2(Bucket=BUCKET, Delimiter="/")
    expect([p["Prefix"] for p in listing.get("CommonPrefixes", [])] == ["wordle/"], f"CommonPrefixes {listing.get('CommonPrefixes')}")
    body = s3.get_object(Bucket=BUCKET, Key="wordle/training-data.jsonl", Range="bytes=0-0")["Body"].read()
    expect(body == b"{", f"first byte {body!r}")


def training_document(run, steps, batch="32", group="2", epochs="1", train="wordle/training-data.jsonl", mlflow=True):
    # The SDK's document shape: MlflowConfig (with a run name) under TrainingConfig, AcceptEula false for an ungated model;
    # the SDK leaves MlflowConfig out for an account without an MLflow app.
    document = {
        "AgentConfig": {"BedrockAgentCoreConfig": {"AgentRuntimeArn": RUNTIME, "Qualifier": "DEFAULT"}},
        "InputDataConfig": [channel("train", f"s3://{BUCKET}/{train}"), channel("validation", f"s3://{BUCKET}/wordle/validation-data.jsonl")],
        "OutputDataConfig": {"S3OutputPath": f"s3://{BUCKET}/output"},
        "TrainingConfig": {
            "BaseModelArn": MODEL,
            "MlflowConfig": {"MlflowResourceArn": MLFLOW, "MlflowExperimentName": "boto3", "MlflowRunName": run},
            "AcceptEula": False,
            "HyperParameters": {"global_batch_size": batch, "group_size": group, "max_epochs": epochs, "max_steps": str(steps)},
        },
    }
    if not mlflow:
        del document["TrainingConfig"]["MlflowConfig"]
    return document


def create_training_job():
    document = training_document("boto3-run", 2)
    out = sagemaker.create_job(JobName=TRAINING, JobCategory="AgentRFT", RoleArn=ROLE, JobConfigSchemaVersion="1.0.0", JobConfigDocument=json.dumps(document))
    expect(out["JobArn"] == f"arn:aws:sagemaker:{REGION}:{ACCOUNT}:job/AgentRFT/{TRAINING}", f"JobArn {out['JobArn']}")


def describe_until_complete():
    deadline = time.time() + 120 * SCALE
    while True:
        job = sagemaker.describe_job(JobName=TRAINING, JobCategory="AgentRFT")
        if job["JobStatus"] != "InProgress" or time.time() > deadline:
            break
        time.sleep(0.5)
    expect(job["JobStatus"] == "Completed", f"status {job['JobStatus']} ({job.get('FailureReason')})")
    expect(job["SecondaryStatusTransitions"][-1]["Status"] == "Completed", "last transition")
    expect(hasattr(job["CreationTime"], "year"), "CreationTime parsed as a datetime")
    output = json.loads(job["JobConfigDocument"])["ServiceOutput"]
    expect(output["RolloutInfo"] == {"Total": 128, "Completed": 128}, f"RolloutInfo {output.get('RolloutInfo')}")
    expect(output["MlflowDetails"]["RunName"] == "boto3-run", f"MlflowDetails {output.get('MlflowDetails')}")
    state["adapter"] = output["OutputModelPackageArn"]


def list_with_paging():
    names, token, pages = [], None, 0
    while True:
        kwargs = {"JobCategory": "AgentRFT", "MaxResults": 1, "SortBy": "Name", "SortOrder": "Ascending"}
        if token:
            kwargs["NextToken"] = token
        page = sagemaker.list_jobs(**kwargs)
        names += [s["JobName"] for s in page["JobSummaries"]]
        pages += 1
        token = page.get("NextToken")
        if not token:
            break
    expect(TRAINING in names and len(names) == pages and names == sorted(names), f"{pages} pages: {names}")
    paginated = [s["JobName"] for p in sagemaker.get_paginator("list_jobs").paginate(JobCategory="AgentRFT", PaginationConfig={"PageSize": 2}) for s in p["JobSummaries"]]
    expect(sorted(paginated) == sorted(names), f"paginator {paginated}")


def create_evaluation():
    document = {
        "AgentConfig": {"BedrockAgentCoreConfig": {"AgentRuntimeArn": RUNTIME, "Qualifier": "DEFAULT"}},
        "InputDataConfig": [channel("evaluation", f"s3://{BUCKET}/wordle/validation-data.jsonl")],
        "OutputDataConfig": {"S3OutputPath": f"s3://{BUCKET}/eval", "MlflowConfig": {"MlflowResourceArn": MLFLOW, "MlflowExperimentName": "boto3-eval", "MlflowRunName": "fine-tuned-model-eval"}},
        "EvaluationConfig": {"BaseModelArn": MODEL, "AcceptEula": True, "HyperParameters": {"eval_group_size": "1", "temperature": "1.0", "sampling_top_p": "1.0", "sampling_max_tokens": "8192", "pass_k_values": "[1]"}},
        "ModelPackageConfig": {"InputModelPackageArn": state["adapter"]},
        "StoppingCondition": {"MaxRuntimeInSeconds": 14400},
    }
    sagemaker.create_job(JobName=EVALUATION, JobCategory="AgentRFTEvaluation", RoleArn=ROLE, JobConfigSchemaVersion="1.0.0", JobConfigDocument=json.dumps(document))
    # The SDK evaluator's names are rejected with the accepted ones.
    document["EvaluationConfig"]["HyperParameters"] = {"sampling_temperature": "1.0"}
    try:
        sagemaker.create_job(JobName="boto3-sdk-names", JobCategory="AgentRFTEvaluation", RoleArn=ROLE, JobConfigSchemaVersion="1.0.0", JobConfigDocument=json.dumps(document))
        raise AssertionError("sampling_temperature was accepted")
    except ClientError as error:
        expect(error.response["Error"]["Code"] == "ValidationException", error.response["Error"]["Code"])
        expect("use temperature" in error.response["Error"]["Message"], error.response["Error"]["Message"])


def read_logs():
    runtime = agentcore_control.get_agent_runtime(agentRuntimeId="wordle_agent-AbCdEf1234")
    expect(runtime["status"] == "READY" and "lifecycleConfiguration" in runtime, f"runtime {sorted(runtime)}")
    group = "/aws/bedrock-agentcore/runtimes/wordle_agent-AbCdEf1234-DEFAULT"
    events = [e for page in logs.get_paginator("filter_log_events").paginate(logGroupName=group, filterPattern=f'"job/AgentRFT/{TRAINING}"') for e in page["events"]]
    records = [json.loads(e["message"]) for e in events]
    expect(len(records) == 128, f"{len(records)} rollout records")
    answers = {json.loads(line)["prompt"] for line in open(f"{DATASETS}/training-data.jsonl")}
    expect(all(any(f'"{r["answer"]}"' in a for a in answers) for r in records), "answers come from the uploaded dataset")
    streams = logs.describe_log_streams(logGroupName="/aws/sagemaker/Job/AgentRFT", logStreamNamePrefix=f"{TRAINING}/")["logStreams"]
    expect(len(streams) == 1, f"service streams {[s['logStreamName'] for s in streams]}")
    service = logs.get_log_events(logGroupName="/aws/sagemaker/Job/AgentRFT", logStreamName=streams[0]["logStreamName"], startFromHead=True)
    expect(any("Completed" in e["message"] for e in service["events"]), "the service stream says Completed")


def stop():
    # A job of its own, long enough that a starved client cannot see it finish first: the training rows ten times over,
    # 1,000 steps (the service's most) of 4,096 rollouts, 1,740 s each: 14 minutes at the emulator's speed. Two minutes
    # (the 600 rows' most) ran out once between describe and stop, the client at the lowest priority under load 60.
    with open(f"{DATASETS}/training-data.jsonl", "rb") as rows:
        s3.put_object(Bucket=BUCKET, Key="wordle-long/training-data.jsonl", Body=rows.read() * 10)
    # No MLflow run: the emulator would play each step's 4,096 rollouts for its curves, and busy with them answered nothing.
    document = training_document("boto3-stop", 1000, batch="128", group="32", epochs="30", train="wordle-long/training-data.jsonl", mlflow=False)
    sagemaker.create_job(JobName=STOPPED, JobCategory="AgentRFT", RoleArn=ROLE, JobConfigSchemaVersion="1.0.0", JobConfigDocument=json.dumps(document))
    deadline = time.time() + 60 * SCALE
    job = sagemaker.describe_job(JobName=STOPPED, JobCategory="AgentRFT")
    while job["JobStatus"] != "InProgress" and time.time() < deadline:
        time.sleep(0.2)
        job = sagemaker.describe_job(JobName=STOPPED, JobCategory="AgentRFT")
    expect(job["JobStatus"] == "InProgress", f"the job to stop is {job['JobStatus']}")
    sagemaker.stop_job(JobName=STOPPED, JobCategory="AgentRFT")
    deadline = time.time() + 60 * SCALE
    while job["JobStatus"] in ("InProgress", "Stopping") and time.time() < deadline:
        time.sleep(0.5)
        job = sagemaker.describe_job(JobName=STOPPED, JobCategory="AgentRFT")
    expect(job["JobStatus"] == "Stopped", f"after stop: {job['JobStatus']}")


def delete():
    # The evaluation runs to its end (seconds at the emulator's speed): a running job cannot be deleted.
    deadline = time.time() + 120 * SCALE
    while sagemaker.describe_job(JobName=EVALUATION, JobCategory="AgentRFTEvaluation")["JobStatus"] == "InProgress" and time.time() < deadline:
        time.sleep(0.5)
    for name, category in ((EVALUATION, "AgentRFTEvaluation"), (STOPPED, "AgentRFT"), (TRAINING, "AgentRFT")):
        sagemaker.delete_job(JobName=name, JobCategory=category)
        try:
            sagemaker.describe_job(JobName=name, JobCategory=category)
            raise AssertionError(f"{name} still described after delete")
        except ClientError as error:
            expect(error.response["Error"]["Code"] in ("ResourceNotFound", "ValidationException"), error.response["Error"]["Code"])


def notifications():
    # The SageMaker SDK's enable_notifications, delete_notification_rule and list_notification_rules
    # (common_utils/notifications.py), call for call.
    events.list_rules(NamePrefix="sm-pysdk-job-notif", Limit=1)
    sns.get_topic_attributes(TopicArn=TOPIC)
    try:
        sns.get_topic_attributes(TopicArn=f"arn:aws:sns:{REGION}:{ACCOUNT}:nobody")
        raise AssertionError("a missing topic was found")
    except ClientError as error:
        expect("NotFound" in str(error), str(error))
    name = "sm-pysdk-job-notif-boto3"
    pattern = {"source": ["aws.sagemaker"], "detail-type": ["SageMaker Training Job State Change"], "detail": {"TrainingJobStatus": ["Completed"]}}
    arn = events.put_rule(Name=name, EventPattern=json.dumps(pattern), State="ENABLED", Description=f"SageMaker PySDK training job notifications -> {TOPIC}")["RuleArn"]
    expect(arn == f"arn:aws:events:{REGION}:{ACCOUNT}:rule/{name}", arn)
    target = {"Id": f"{name}-sns-target", "Arn": TOPIC, "InputTransformer": {"InputPathsMap": {"status": "$.detail.TrainingJobStatus"}, "InputTemplate": '{"Status": "<status>"}'}}
    expect(events.put_targets(Rule=name, Targets=[target])["FailedEntryCount"] == 0, "put_targets failed")
    rules = [r for page in events.get_paginator("list_rules").paginate(NamePrefix="sm-pysdk-job-notif", EventBusName="default") for r in page["Rules"]]
    expect([r["Name"] for r in rules] == [name], str(rules))
    ids = [t["Id"] for t in events.list_targets_by_rule(Rule=name, EventBusName="default")["Targets"]]
    events.remove_targets(Rule=name, Ids=ids, EventBusName="default")
    events.delete_rule(Name=name, EventBusName="default")
    expect(events.list_rules(NamePrefix="sm-pysdk-job-notif")["Rules"] == [], "the rule is still listed")


STEPS = [upload_datasets, create_training_job, describe_until_complete, list_with_paging, create_evaluation, read_logs, stop, delete, notifications]

if __name__ == "__main__":
    print(f"boto3 {boto3.__version__}, botocore {botocore.__version__}", flush=True)
    passed = failed = 0
    broken = None
    for step in STEPS:
        if broken:
            print(f"FAIL {step.__name__}: not run after {broken} failed", flush=True)
            failed += 1
            continue
        try:
            step()
            print(f"ok {step.__name__}", flush=True)
            passed += 1
        except Exception as error:  # every failure is reported, the workflow stops
            print(f"FAIL {step.__name__}: {type(error).__name__}: {error}", flush=True)
            failed += 1
            broken = step.__name__
    print(json.dumps({"passed": passed, "failed": failed}), flush=True)
    sys.exit(1 if failed else 0)
