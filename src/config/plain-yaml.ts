/**
 * What a policy may be made of, checked on the YAML tree before it becomes a value (pure).
 *
 * A policy is plain mappings, lists and scalars. The yaml library can also make Sets, ordered
 * maps, dates, bytes and merge keys (`!!set`, `!!omap`, `%YAML 1.1` …), which pass a schema's
 * "object" and are then silently ignored; a value that contains itself (`&a [*a]`), which
 * every later walk of the value follows forever; and, through aliases, millions of values
 * from a few lines. So the tree is checked first, and each problem is named at its node:
 *
 * 1. Map each alias to its anchor: the last node before it with that name, as the library
 *    resolves it.
 * 2. Walk the tree from the root, depth first, following aliases into their anchors' nodes.
 * 3. Refuse a node whose tag is not its kind's core tag (!!map, !!seq, !!str, !!int, !!float,
 *    !!bool, !!null) or whose class is not a plain map, list or scalar; a scalar whose value
 *    is not a string, number, boolean or null; a key that is not a scalar.
 * 4. Refuse an alias to a node that contains it, without following it.
 * 5. Stop at the alias (the one written in the tree, not one inside what it expands to) that
 *    takes the walk past MAX_EXPANDED values reached through aliases.
 *
 * With no problem, `doc.toJS()` builds a finite tree of plain objects, arrays and scalars,
 * at most MAX_EXPANDED values larger than the file itself.
 */
import { isAlias, isMap, isNode, isScalar, isSeq, Scalar, visit, YAMLMap, YAMLSeq, type Alias, type Document, type Node, type Range } from 'yaml';

/** Values reached through aliases: far more than any policy needs, few enough to build at once. */
export const MAX_EXPANDED = 10_000;

export interface PlainYamlProblem {
  range: Range | undefined;
  message: string;
}

type Frame = { node: unknown; where: string; via: Alias | null; key?: boolean } | { close: Node };

const CORE = 'tag:yaml.org,2002:';
const PLAIN_TAGS = new Map<object, ReadonlySet<string | undefined>>([
  [YAMLMap.prototype, new Set([undefined, `${CORE}map`])],
  [YAMLSeq.prototype, new Set([undefined, `${CORE}seq`])],
  [Scalar.prototype, new Set([undefined, `${CORE}str`, `${CORE}int`, `${CORE}float`, `${CORE}bool`, `${CORE}null`])],
]);

export function plainYamlProblems(doc: Document.Parsed): PlainYamlProblem[] {
  const problems: PlainYamlProblem[] = [];
  const reported = new Set<unknown>();
  const report = (node: Node, message: string): void => {
    if (reported.has(node)) return; // a node reached again through an alias is named once
    reported.add(node);
    problems.push({ range: node.range ?? undefined, message });
  };
  const targets = anchorsOf(doc);
  const open = new Set<Node>();
  const stack: Frame[] = [{ node: doc.contents, where: '', via: null }];
  let expanded = 0;
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    if ('close' in frame) {
      open.delete(frame.close);
      continue;
    }
    const { node, where, via } = frame;
    if (node === null || node === undefined) continue;
    if (via && ++expanded > MAX_EXPANDED) {
      report(via, `alias *${via.source} makes the policy more than ${MAX_EXPANDED} values once aliases are expanded`);
      return problems;
    }
    if (frame.key) {
      const problem = isScalar(node) ? notPlain(node) : 'not a plain scalar';
      if (problem) report(node as Node, `${named(where)} has a key that is ${problem}: a policy holds only plain mappings, lists and scalars`);
      continue;
    }
    if (isAlias(node)) {
      const target = targets.get(node);
      if (target === undefined) continue; // an unknown anchor is a parse error, reported before this
      if (open.has(target)) report(node, `${named(where)}: alias *${node.source} refers to a value that contains it`);
      else stack.push({ node: target, where, via: via ?? node });
      continue;
    }
    const problem = notPlain(node as Node);
    if (problem) {
      report(node as Node, `${named(where)} is ${problem}: a policy holds only plain mappings, lists and scalars`);
      continue;
    }
    if (isScalar(node)) continue;
    open.add(node as Node);
    stack.push({ close: node as Node });
    if (isMap(node)) {
      for (const pair of [...node.items].reverse()) {
        const key = isScalar(pair.key) ? String(pair.key.value) : '?';
        stack.push({ node: pair.value, where: where ? `${where}.${key}` : key, via });
        stack.push({ node: pair.key, where, via, key: true });
      }
    } else if (isSeq(node)) {
      for (let i = node.items.length - 1; i >= 0; i--) stack.push({ node: node.items[i], where: `${where}[${i}]`, via });
    }
  }
  return problems;
}

/** Each alias's node: the last one before it, in document order, anchored with its name. */
function anchorsOf(doc: Document.Parsed): Map<Alias, Node> {
  const anchors = new Map<string, Node>();
  const targets = new Map<Alias, Node>();
  visit(doc, (_key, node) => {
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (target) targets.set(node, target);
    } else if (isNode(node) && node.anchor) {
      anchors.set(node.anchor, node); // defined where the node starts: its own content can refer to it
    }
  });
  return targets;
}

/** What a node is when it is not a plain map, list or scalar, as words for a message; null when it is. */
function notPlain(node: Node): string | null {
  const tags = PLAIN_TAGS.get(Object.getPrototypeOf(node) as object);
  if (!tags?.has(node.tag)) return node.tag === undefined ? `a ${node.constructor.name}` : `tagged ${node.tag.replace(CORE, '!!')}`;
  if (!isScalar(node)) return null;
  const value: unknown = node.value;
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return null;
  if (typeof value === 'symbol') return 'a merge key (<<)';
  return `a ${Object.prototype.toString.call(value).slice(8, -1)}`; // Date, Uint8Array …
}

function named(where: string): string {
  return where === '' ? 'the policy' : where;
}
