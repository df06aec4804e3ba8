"""TEST FIXTURE ONLY: the Wordle environment the client-test agents share (the runner puts the agent's folder on sys.path)."""

import json

TOOLS = [{"type": "function", "function": {"name": "guess_word", "description": "Guess the 5-letter word.",
          "parameters": {"type": "object", "properties": {"guess": {"type": "string"}}, "required": ["guess"]}}}]
COLOURS = {"G": "green", "Y": "yellow", "X": "gray"}


def mark(guess, answer):
    marks, left = ["X"] * 5, {}
    for i, (g, a) in enumerate(zip(guess, answer)):
        if g == a:
            marks[i] = "G"
        else:
            left[a] = left.get(a, 0) + 1
    for i, g in enumerate(guess):
        if marks[i] != "G" and left.get(g, 0) > 0:
            marks[i], left[g] = "Y", left[g] - 1
    return "".join(marks)


class Game:
    """Feedback text per guess and a reward with partial credit for greens."""

    def __init__(self, payload):
        row = json.loads(payload["prompt"])
        self.answer, self.prompt, self.best, self.solved, self.n = row["answer"], row["prompt"], 0, False, 0

    def first_message(self, session):
        return f"{self.prompt}. Play Wordle with guess_word. Session {session}."

    def guess(self, arguments):
        guess = json.loads(arguments or "{}").get("guess", "").lower()
        self.n += 1
        marks = mark(guess, self.answer)
        self.best = max(self.best, marks.count("G"))
        self.solved = marks == "GGGGG"
        if self.solved:
            return f"Guess {self.n}/6: {guess.upper()} \u2014 all green. Correct, you solved it!"
        return f"Guess {self.n}/6: {guess.upper()} -> " + ", ".join(f"{c.upper()}={COLOURS[m]}" for c, m in zip(guess, marks))

    def over(self):
        return self.solved or self.n >= 6

    def reward(self):
        return 1.0 if self.solved else round(0.1 * self.best, 2)
