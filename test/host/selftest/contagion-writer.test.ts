// Contagion self-test, the writer: adds a named scenario in a new scenario file of its copy, then fails before any
// clean-up, as a real test that breaks half-way would. Run only inside the harness self-test (host suite `host harness`).
import * as vscode from 'vscode';
import { workspaceFile } from '../suite/workspace';
import { DELIBERATE_FAILURE, LEFTOVER } from './contagion';

describe('contagion self-test: a writer that fails half-way', () => {
  it('writes a scenario file with a scenario of its own, then throws', async () => {
    const read = async (uri: vscode.Uri) => JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
    const spec = (await read(workspaceFile('reward-scenarios', 'support.mtrl-reward.json'))) as { scenarios: Record<string, unknown> };
    spec.scenarios = { 'from-board': spec.scenarios.shortcut };
    await vscode.workspace.fs.writeFile(workspaceFile(...LEFTOVER), new TextEncoder().encode(JSON.stringify(spec, null, 2)));
    throw new Error(DELIBERATE_FAILURE);
  });
});
