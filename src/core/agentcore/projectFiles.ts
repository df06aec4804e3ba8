/** An agent declared in the workspace: the runtime name it deploys as and its entry file, relative to the config file. */
interface DeclaredAgent {
  runtimeName: string;
  entrypoint: string;
}

/** `wordle_agent-AbCdEf1234` → `wordle_agent`: the deployed id is the name plus a 10-character suffix. */
export function runtimeNameFromId(runtimeId: string): string {
  return /^(.*)-[a-zA-Z0-9]{10}$/.exec(runtimeId)?.[1] ?? runtimeId;
}

const unquote = (v: string) => v.trim().replace(/^["']|["']$/g, '');

/** Agents of a starter-toolkit `.bedrock_agentcore.yaml` (`agents: <key>: { name, entrypoint, … }`). */
export function agentsFromYaml(text: string): DeclaredAgent[] {
  const agents: DeclaredAgent[] = [];
  let inAgents = false;
  let current: { key: string; name?: string; entrypoint?: string; indent: number } | undefined;
  const flush = () => current && agents.push({ runtimeName: current.name ?? current.key, entrypoint: current.entrypoint ?? 'main.py' });
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*(#|$)/.test(line)) continue;
    const indent = line.length - line.trimStart().length;
    if (indent === 0) {
      flush();
      current = undefined;
      inAgents = /^agents:\s*$/.test(line);
      continue;
    }
    if (!inAgents) continue;
    const block = /^(\s+)([^\s:#][^:]*):\s*$/.exec(line);
    if (block && (!current || indent <= current.indent)) {
      flush();
      current = { key: unquote(block[2]), indent };
      continue;
    }
    const field = /^\s+(name|entrypoint):\s*(.+)$/.exec(line);
    if (current && field && indent === current.indent + 2) current[field[1] as 'name' | 'entrypoint'] = unquote(field[2]);
  }
  flush();
  return agents;
}

/** Agents of an `agentcore.json`: any object with a name and an entrypoint, wherever the CLI nests it. */
export function agentsFromJson(text: string): DeclaredAgent[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const agents: DeclaredAgent[] = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    const name = o.agentRuntimeName ?? o.runtimeName ?? o.name;
    const entry = o.entrypoint ?? o.entryPoint ?? o.entry_point;
    if (typeof name === 'string' && typeof entry === 'string') agents.push({ runtimeName: name, entrypoint: entry });
    Object.values(o).forEach(visit);
  };
  visit(value);
  return agents;
}
