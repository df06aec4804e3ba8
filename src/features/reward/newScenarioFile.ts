import * as vscode from 'vscode';

/** A scenario file to fill in: a function-form reward, two scenarios of any tool-calling agent, one expectation. */
const TEMPLATE = `{
  "reward": { "file": "reward.py", "function": "reward" },
  "task": { "prompt": "The dataset row's prompt, e.g. Resolve the customer's ticket: my order arrived broken." },
  "scenarios": {
    "ideal": {
      "finished": true,
      "turns": [
        { "tool_calls": [{ "name": "lookup_order", "arguments": { "order_id": "ORD-10001" } }] },
        { "text": "I have issued a full refund." }
      ]
    },
    "gave-up": { "finished": false, "tool_calls": [] }
  },
  "expect": ["ideal > gave-up"]
}
`;

/** `MTRL: New Reward Scenario File`: an untitled \`*.mtrl-reward.json\` to save beside the reward (the schema applies once saved under that name). */
export function registerNewScenarioFile(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('mtrl.newRewardScenarioFile', async () => {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      const uri = folder
        ? (await freeName(folder)).with({ scheme: 'untitled' })
        : vscode.Uri.from({ scheme: 'untitled', path: 'reward.mtrl-reward.json' });
      const document = await vscode.workspace.openTextDocument(uri);
      const editor = await vscode.window.showTextDocument(document);
      if (document.getText() === '') await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), TEMPLATE));
    }),
  );
}

/** reward.mtrl-reward.json, else reward-2…: saving an untitled file with a path writes there, so it never names a file that exists. */
async function freeName(folder: vscode.Uri): Promise<vscode.Uri> {
  for (let n = 1; ; n++) {
    const uri = vscode.Uri.joinPath(folder, n === 1 ? 'reward.mtrl-reward.json' : `reward-${n}.mtrl-reward.json`);
    try {
      await vscode.workspace.fs.stat(uri);
    } catch {
      return uri;
    }
  }
}
