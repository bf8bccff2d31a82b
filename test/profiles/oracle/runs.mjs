// The agent runs capture.mjs performs: one entry per (agent, fixture, cwd, variant).
const ALL = ['codex', 'claude', 'gemini', 'copilot', 'qwen'];
const each = (agents, fixture, cwds, extra = {}) =>
  agents.flatMap((agent) => cwds.map((cwd) => ({ agent, fixture, cwd, ...extra })));
const fallback = (names, variant) => ({ args: ['-c', `project_doc_fallback_filenames=${JSON.stringify(names)}`], variant });
const maxBytes = (n) => ({ args: ['-c', `project_doc_max_bytes=${n}`], variant: `max_bytes_${n}` });

export const RUNS = [
  ...each(ALL, 'g-budget-utf8', ['packages/api']),
  ...[25, 48, 69, 0].map((n) => ({ agent: 'codex', fixture: 'g-budget-utf8', cwd: 'packages/api', ...maxBytes(n) })),
  ...each(['codex'], 'g-budget-utf8', ['packages/api/src']),
  ...each(ALL, 'h-global-files', ['.', 'packages/api']),
  ...each(['claude', 'gemini', 'copilot'], 'i-imports', ['.', 'packages/api']),
  ...each(['claude'], 'i-imports', ['.', 'packages/api'], { env: { ORACLE_CLAUDE_APPROVE_EXTERNAL: '1' }, variant: 'approve_external' }),
  ...each(ALL, 'j-mixed', ['.', 'packages/api/src', 'packages/web']),
  ...each(['gemini'], 'j-mixed', ['.', 'packages/api/src'], { env: { ORACLE_GEMINI_CONTEXT_FILENAME: '["AGENTS.md","GEMINI.md"]' }, variant: 'context_agents_gemini' }),
  ...each(ALL, 'l-agents-only', ['.', 'packages/api', 'packages/web', 'packages/docs']),
  ...each(['codex'], 'l-agents-only', ['packages/web', 'packages/docs'], fallback(['QWEN.md', 'CLAUDE.md'], 'fallback_QWEN_CLAUDE')),
  ...each(['codex'], 'l-agents-only', ['packages/docs'], fallback(['CLAUDE.md', 'QWEN.md'], 'fallback_CLAUDE_QWEN')),
];
RUNS.push(
  ...each(['claude', 'copilot', 'qwen', 'gemini'], 'm-transforms', ['packages/a/b/c']),
  ...each(['gemini'], 'm-transforms', ['packages/a/b/c'], { env: { ORACLE_GEMINI_CONTEXT_FILENAME: '["CLAUDE.md"]' }, variant: 'context_claude' }),
);
const approve = { env: { ORACLE_CLAUDE_APPROVE_EXTERNAL: '1' }, variant: 'approve_external' };
const geminiNames = (names, variant) => ({ env: { ORACLE_GEMINI_CONTEXT_FILENAME: JSON.stringify(names) }, variant });
RUNS.push(
  ...each(['claude', 'copilot'], 'n-claude-rules', ['.', 'packages/api']),
  ...each(['claude', 'copilot'], 'o-at-imports', ['.', 'packages/api']),
  ...each(['gemini'], 'o-at-imports', ['.', 'packages/api', 'packages/web']),
  ...each(['gemini'], 'o-at-imports', ['.'], geminiNames(['CLAUDE.md'], 'context_claude')),
  ...each(ALL, 'p-copilot-files', ['.', 'a/b/c']),
  ...each(['copilot'], 'p-copilot-files', ['a', 'a/b']),
  ...each(ALL, 'q-symlinks', ['.', '.agents/skills', 'packages/api', 'packages/web']),
  ...each(['gemini'], 'q-symlinks', ['.', 'packages/api'], geminiNames(['AGENTS.md', 'GEMINI.md', 'CLAUDE.md'], 'context_all')),
  ...each(ALL, 'r-claude-at-agents', ['.', 'packages/x', 'packages/y']),
  ...each(['claude'], 'r-claude-at-agents', ['packages/x', 'packages/y'], approve),
);
RUNS.push(
  ...each(['claude', 'copilot', 'gemini'], 's-import-tokens', ['.']),
  ...each(['claude'], 'q-symlinks', ['.agents/skills', 'packages/api'], approve),
);
RUNS.push(
  ...each(['claude', 'copilot', 'gemini'], 't-import-places', ['.', 'packages/crlf']),
);
RUNS.push(
  ...each(ALL, 'q-symlinks', ['packages/dup']),
  ...each(['gemini'], 'q-symlinks', ['packages/dup'], geminiNames(['AGENTS.md', 'GEMINI.md', 'CLAUDE.md'], 'context_all')),
);
RUNS.push(...each(ALL, 'u-blank-files', ['.', 'packages/api']));
