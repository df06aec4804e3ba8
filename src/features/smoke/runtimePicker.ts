import * as vscode from 'vscode';
import { parseRuntimeArn } from '../../core/smoke';
import type { Services } from '../services';
import type { SmokeResultStore } from '../stores';
import { describeRecord } from '../../core/smoke/record';
import { listRuntimeNodes } from '../../services/runtimes';

interface RuntimeItem extends vscode.QuickPickItem {
  runtimeArn?: string;
}

const ENTER_ARN = 'Enter a runtime ARN…';

/** Lets the user pick a runtime listed by AgentCore control (with its status and last smoke result), or type an ARN. */
/** What the picker returns for "smoke-test an agent file instead": no runtime needed. */
export const LOCAL_SMOKE = 'local-agent-file';

export async function pickRuntime(services: Services, results: SmokeResultStore): Promise<string | undefined> {
  const pick = vscode.window.createQuickPick<RuntimeItem>();
  pick.title = 'MTRL: Smoke Test Agent Runtime';
  pick.placeholder = `Agent runtimes in ${services.aws.current.region}`;
  pick.busy = true;
  pick.matchOnDetail = true;
  // Run from the walkthrough, whose step takes focus back as it ticks: the question must not close under the user.
  pick.ignoreFocusOut = true;
  const manual: RuntimeItem = { label: `$(edit) ${ENTER_ARN}`, alwaysShow: true };
  const local: RuntimeItem = {
    label: '$(file-code) Smoke test an agent file on this machine',
    detail: 'No runtime deployed yet: the same smoke path against a local Job Runtime',
    alwaysShow: true,
    runtimeArn: LOCAL_SMOKE,
  };
  pick.items = [manual, local];
  const controller = new AbortController();
  void (async () => {
    // The same listing as the Agent Runtimes view: its runtimes, or the sentence it shows instead.
    const nodes = await listRuntimeNodes(services.aws, services.explain, controller.signal);
    if (controller.signal.aborted) return;
    const items = nodes
      .filter((node) => node.kind === 'runtime')
      .map((node): RuntimeItem => ({
        label: `$(server-process) ${node.name}`,
        description: `${node.status} · ${describeRecord(results.get(node.runtimeArn))}`,
        detail: node.runtimeArn,
        runtimeArn: node.runtimeArn,
      }));
    pick.items = [...items, manual, local];
    // The runtimes, not the manual entry shown while they loaded, take the keyboard focus.
    if (items.length) pick.activeItems = [items[0]];
    const message = nodes.find((node) => node.kind === 'message');
    if (message?.message === 'empty')
      pick.placeholder = `No agent runtimes in ${services.aws.current.region}: deploy one with \`agentcore deploy\`, or enter an ARN`;
    else if (message) {
      services.output.error(message.text);
      pick.placeholder = `${message.text} You can still enter an ARN.`;
    }
    pick.busy = false;
  })();
  const chosen = await new Promise<RuntimeItem | undefined>((resolve) => {
    pick.onDidAccept(() => resolve(pick.selectedItems[0]));
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  controller.abort();
  pick.dispose();
  if (!chosen) return undefined;
  if (chosen.runtimeArn) return chosen.runtimeArn;
  return vscode.window.showInputBox({
    title: 'MTRL: Smoke Test Agent Runtime',
    prompt: 'Agent runtime ARN',
    placeHolder: 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/wordle_agent-AbCdEf1234',
    ignoreFocusOut: true,
    validateInput: (text) =>
      parseRuntimeArn(text)
        ? undefined
        : 'An agent runtime ARN looks like arn:aws:bedrock-agentcore:<region>:<account>:runtime/<name>-<10 characters>.',
  });
}
