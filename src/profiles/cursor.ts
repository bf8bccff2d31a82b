/**
 * Cursor profile — derived from Cursor's documentation (docs.cursor.com/context/rules,
 * as summarised in FORMATS.md), checked against Cursor 2.x docs. Cursor has no
 * CLI the oracle can run, so nothing here was captured from a real request and
 * the framing below is rulec's, not Cursor's.
 *
 * 1. Project rules: `.cursor/rules/**\/*.mdc` in the root and in every
 *    directory from the root down to cwd (nested rule directories scope to
 *    their directory). Plain `.md` files there are ignored.
 * 2. Each rule's frontmatter (read leniently, like Cursor: `globs: *.ts`)
 *    gives its type: `alwaysApply: true` → always (loaded at session start);
 *    `globs` → auto-attached (lazy, when a matching file is in context);
 *    `description` only → agent-requested (the agent sees only the
 *    description); none → manual (only when @-mentioned).
 * 3. Legacy `.cursorrules` at the root loads at session start.
 * 4. AGENTS.md in each directory from the root down to cwd loads as plain
 *    Markdown.
 * 5. Order: always rules (root directory first, then by path), `.cursorrules`,
 *    then AGENTS.md root-first. Frontmatter is stripped from `.mdc` bodies.
 *    Team and user rules live in Cursor's settings, not in files; Cursor
 *    gives earlier sources precedence (team → project → user).
 * 6. No truncation is documented. rulec joins the bodies with "\n\n" and
 *    marks each with `<rule path="…">`; the real framing is not observable.
 */
import { parseFrontmatter } from '../parse/frontmatter.js';
import { decodeLossy, dirChain, exists, finish, joinRel, loaded, pathsWithPrefix, skipped, stripBom } from './common.js';
import type { AgentProfile, ProfileFile, RepoView } from './types.js';
import { SKIP_LAZY } from './types.js';

const VERSION = 'docs-2.0';

type RuleKind = 'always' | 'auto-attached' | 'agent-requested' | 'manual';

function ruleKind(data: Record<string, unknown> | null): RuleKind {
  const always = data?.alwaysApply === true || data?.alwaysApply === 'true';
  if (always) return 'always';
  const globs = data?.globs;
  const hasGlobs = (typeof globs === 'string' && globs.trim() !== '') || (Array.isArray(globs) && globs.length > 0);
  if (hasGlobs) return 'auto-attached';
  const desc = data?.description;
  if (typeof desc === 'string' && desc.trim() !== '') return 'agent-requested';
  return 'manual';
}

function rulesIn(view: RepoView, dir: string): string[] {
  const prefix = joinRel(dir, '.cursor/rules/');
  return [...pathsWithPrefix(view, prefix)];
}

function loadRules(view: RepoView, cwd: string, files: ProfileFile[], parts: string[]): void {
  for (const dir of dirChain(cwd)) {
    for (const path of rulesIn(view, dir)) {
      const raw = view.read(path) ?? new Uint8Array();
      const reason = `project rule in ${joinRel(dir, '.cursor/rules')}`;
      if (!path.endsWith('.mdc')) {
        files.push(skipped(path, 'project', raw.length, reason, 'not an .mdc file: Cursor ignores it'));
        continue;
      }
      const text = stripBom(decodeLossy(raw)).replace(/\r\n?/g, '\n');
      const fm = parseFrontmatter(path, text, true).value;
      const kind = ruleKind(fm.data);
      if (kind !== 'always') {
        const why = kind === 'auto-attached' ? `${SKIP_LAZY}: auto-attached when a file matching its globs is in context`
          : kind === 'agent-requested' ? `${SKIP_LAZY}: agent-requested, only its description is offered`
            : 'manual: loads only when @-mentioned';
        files.push(skipped(path, 'project', raw.length, reason, why));
        continue;
      }
      const body = fm.body.trim();
      parts.push(`<rule path="${path}">\n${body}\n</rule>`);
      files.push(loaded(path, 'project', raw, body, `${reason} (alwaysApply)`));
    }
  }
}

export const cursorProfile: AgentProfile = {
  name: 'cursor',
  agent: 'Cursor',
  agentVersion: VERSION,
  summary: 'alwaysApply .mdc rules, legacy .cursorrules and AGENTS.md from the root to cwd; globs rules attach lazily ' +
    '(derived from docs, not captured).',
  load(view, cwd) {
    const files: ProfileFile[] = [];
    const parts: string[] = [];
    loadRules(view, cwd, files, parts);
    if (exists(view, '.cursorrules')) {
      const raw = view.read('.cursorrules') ?? new Uint8Array();
      const body = stripBom(decodeLossy(raw)).trim();
      parts.push(`<rule path=".cursorrules">\n${body}\n</rule>`);
      files.push(loaded('.cursorrules', 'project', raw, body, 'legacy root .cursorrules'));
    }
    for (const dir of dirChain(cwd)) {
      const path = joinRel(dir, 'AGENTS.md');
      if (!exists(view, path)) continue;
      const raw = view.read(path) ?? new Uint8Array();
      const body = stripBom(decodeLossy(raw)).trim();
      parts.push(`<rule path="${path}">\n${body}\n</rule>`);
      files.push(loaded(path, 'project', raw, body, `AGENTS.md in ${dir === '' ? 'the root' : dir}`));
    }
    const notes = ['derived from Cursor documentation, not captured from a real request; the <rule> framing is rulec\'s'];
    return finish(this.name, VERSION, cwd, files, parts.join('\n\n'), notes);
  },
};
