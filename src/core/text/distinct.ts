/** Characters a name is cut after: a job name's word breaks. */
const NAME_BREAKS = '-_.';

/** Leading characters two texts share. */
function sharedLength(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** `name` past the first `shared` characters, cut just after the last break inside them; cut 0: nothing tells it apart. */
function cutAt(name: string, shared: number, breaks: string): { rest: string; cut: boolean } {
  // A name that another one starts with keeps its whole self: nothing in it tells it apart.
  const cut = shared > 0 && shared < name.length ? Math.max(...[...breaks].map((c) => name.lastIndexOf(c, shared - 1))) + 1 : 0;
  return { rest: name.slice(cut), cut: cut > 0 };
}

/** The part of `name` that tells it from the most alike sibling: the prefix they share, cut at a break (`-`, `_`, `.`). */
export function distinctPart(name: string, siblings: readonly string[], breaks = NAME_BREAKS): { rest: string; cut: boolean } {
  let shared = 0;
  for (const other of siblings) if (other !== name) shared = Math.max(shared, sharedLength(name, other));
  return cutAt(name, shared, breaks);
}

/**
 * distinctPart of every name against all the others at once (sorted, the most alike name is a neighbour), for lists
 * too long to compare pairwise: the board's groups, whose tasks share a template's first words.
 */
export function distinctParts(names: readonly string[], breaks: string): { rest: string; cut: boolean }[] {
  const unique = [...new Set(names)].sort();
  const shared = new Map<string, number>();
  unique.forEach((name, i) =>
    shared.set(
      name,
      Math.max(i > 0 ? sharedLength(name, unique[i - 1]) : 0, i + 1 < unique.length ? sharedLength(name, unique[i + 1]) : 0),
    ),
  );
  return names.map((name) => cutAt(name, shared.get(name) ?? 0, breaks));
}
