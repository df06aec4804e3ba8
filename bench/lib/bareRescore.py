"""The plainest re-score of saved transcripts: each line json.loads'd, the class played through its tool calls, its score read."""
import importlib.util
import json
import sys

spec = importlib.util.spec_from_file_location("env", sys.argv[1])
env = importlib.util.module_from_spec(spec)
spec.loader.exec_module(env)
scored = 0
with open(sys.argv[2], encoding="utf-8") as lines:
    for line in lines:
        transcript = json.loads(line)
        game = env.SupportGame(ticket=transcript["task"]["prompt"])
        try:
            for turn in transcript["turns"]:
                for call in turn["toolCalls"]:
                    game.apply(action=call["arguments"]["action"])
            scored += game.reward is not None
        except ValueError:
            pass
print(json.dumps({"rollouts": scored}))
