#!/usr/bin/env bash
# Writes rulec's own profile fixtures (beyond the six oracle samples) into OUT
# (default: test/profiles/fixtures). Plain directories, no .git: capture.sh
# turns a copy into a git repository before running the real agents.
# Every instruction file carries unique MARKER-... strings.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="${1:-$HERE/../fixtures}"
w() { local f="$R/$1"; mkdir -p "$(dirname "$f")"; printf '%b' "$2" > "$f"; }
begin() { R="$OUT/$1"; rm -rf "$R"; mkdir -p "$R"; }

# g: Codex byte budget. Root AGENTS.md has CJK right after byte 24, the api
#    file an emoji; runs cut inside both (project_doc_max_bytes=25, =48) and 0.
begin g-budget-utf8
w AGENTS.md '# Budget\n\nMARKER-g-root 项目说明 end-g-root\n'
w packages/api/AGENTS.md '# API\nMARKER-g-api 🚀 rocket MARKER-g-api-end\n'
w packages/api/src/index.ts 'export {};\n'

# h: global (home) files of every agent, CRLF and BOM in some of them.
begin h-global-files
w AGENTS.md '# Root agents\n\nMARKER-h-root-agents\n'
w GEMINI.md '# Root gemini\n\nMARKER-h-root-gemini\n'
w QWEN.md '# Root qwen\n\nMARKER-h-root-qwen\n'
w CLAUDE.md '# Root claude\n\nMARKER-h-root-claude\n'
w packages/api/AGENTS.md '# API agents\n\nMARKER-h-api-agents\n'
R="$OUT/h-global-files.home"; rm -rf "$R"; mkdir -p "$R"
w .codex/AGENTS.md '\xEF\xBB\xBF\n# Codex global\r\n\r\nMARKER-h-codex-global\r\n\n'
w .codex/AGENTS.override.md ' \n\t\n'
w .gemini/GEMINI.md '# Gemini global\n\nMARKER-h-gemini-global\n'
w .claude/CLAUDE.md '# Claude global\n\nMARKER-h-claude-global\n'
w .claude/rules/zeta.md '# Claude user rule zeta\n\nMARKER-h-claude-rule-zeta\n'
w .claude/rules/nested/alpha.md '# Claude user rule alpha\n\nMARKER-h-claude-rule-alpha\n'
w .qwen/QWEN.md '# Qwen global\n\nMARKER-h-qwen-global\n'
w .copilot/copilot-instructions.md '# Copilot global\n\nMARKER-h-copilot-global\n'

# i: imports. CLAUDE.md and GEMINI.md import a 6-deep chain, a cycle, a
#    missing file, a file outside the repo, a home file, and mention paths
#    inside a fenced block and an inline code span (never imports).
begin i-imports
IMPORTS='@docs/d1.md\n\nSee @docs/cycle-a.md for the cycle.\n\nMissing: @docs/missing.md\n\nOutside: @../_outside/outside.md\n\n```\n@docs/fenced.md\n```\n\nInline `@docs/span.md` stays.\n\n- list item @./docs/list.md\n'
w CLAUDE.md "# Claude root\n\nMARKER-i-root-claude\n\n$IMPORTS\nMARKER-i-root-claude-end\n"
w GEMINI.md "# Gemini root\n\nMARKER-i-root-gemini\n\n$IMPORTS\nMARKER-i-root-gemini-end\n"
w docs/d1.md 'MARKER-i-d1\n@d2.md\nMARKER-i-d1-end\n'
w docs/d2.md 'MARKER-i-d2\n@d3.md\n'
w docs/d3.md 'MARKER-i-d3\n@d4.md\n'
w docs/d4.md 'MARKER-i-d4\n@d5.md\n'
w docs/d5.md 'MARKER-i-d5\n@d6.md\n'
w docs/d6.md 'MARKER-i-d6\n'
w docs/cycle-a.md 'MARKER-i-cycle-a\n@cycle-b.md\n'
w docs/cycle-b.md 'MARKER-i-cycle-b\n@cycle-a.md\n'
w docs/fenced.md 'MARKER-i-fenced\n'
w docs/span.md 'MARKER-i-span\n'
w docs/list.md 'MARKER-i-list\n'
w packages/api/CLAUDE.md '# API claude\n\nMARKER-i-api-claude\n\n@../../docs/d5.md\n@~/.claude/home-note.md\n'
R="$OUT/i-imports.home"; rm -rf "$R"; mkdir -p "$R"
w .claude/home-note.md 'MARKER-i-home-note\n'
R="$OUT/_outside"; mkdir -p "$R"
w outside.md 'MARKER-i-outside\n'

# j: Claude/Copilot/Gemini mixing: root CLAUDE.md with frontmatter, BOM, CRLF
#    and HTML comments; AGENTS.md beside and below it; .claude/rules with and
#    without paths:; Copilot repo-wide and path-specific files; a 4-deep chain
#    for Copilot's directory order; Cursor rules.
begin j-mixed
w CLAUDE.md '\xEF\xBB\xBF---\r\ndescription: root\r\n---\r\n# Claude root\r\n\r\nMARKER-j-root-claude\r\n\r\n<!-- MARKER-j-crlf-comment -->\r\n\r\nMARKER-j-root-claude-end\r\n'
w AGENTS.md '# Root agents\n\nMARKER-j-root-agents\n'
w .claude/rules/always.md '# Always rule\n\nMARKER-j-rule-always\n'
w .claude/rules/lazy.md '---\npaths:\n  - "src/**/*.ts"\n---\n# Lazy rule\n\nMARKER-j-rule-lazy\n'
w .claude/rules/sub/beta.md '# Beta rule\n\nMARKER-j-rule-beta\n'
w .github/copilot-instructions.md '# Copilot repo-wide\n\nMARKER-j-copilot-repo\n'
w .github/instructions/all.instructions.md '---\napplyTo: "**"\n---\n# All files\n\nMARKER-j-copilot-all\n'
w .github/instructions/ts.instructions.md '---\napplyTo: "**/*.ts"\n---\n# TS files\n\nMARKER-j-copilot-ts\n'
w .cursor/rules/always.mdc '---\ndescription: always\nalwaysApply: true\n---\nMARKER-j-cursor-always\n'
w .cursor/rules/ts.mdc '---\nglobs: "**/*.ts"\nalwaysApply: false\n---\nMARKER-j-cursor-ts\n'
w .cursor/rules/readme.md 'MARKER-j-cursor-plain-md\n'
w packages/AGENTS.md '# packages agents\n\nMARKER-j-packages-agents\n'
w packages/api/AGENTS.md '# api agents\n\nMARKER-j-api-agents\n'
w packages/api/GEMINI.md '# api gemini\n\nMARKER-j-api-gemini\n'
w packages/api/src/AGENTS.md '# api src agents\n\nMARKER-j-src-agents\n'
w packages/api/src/CLAUDE.md '---\ntitle: src\n---\n\n<!-- leading comment MARKER-j-src-comment -->\n# api src claude\n\nMARKER-j-src-claude\n\n```\n<!-- MARKER-j-fenced-comment -->\n```\n'
w packages/api/src/index.ts 'export {};\n'
w packages/web/AGENTS.md '# web agents\n\nMARKER-j-web-agents\n'
w packages/web/CLAUDE.local.md '# web local\n\nMARKER-j-web-local\n'

# l: no CLAUDE.md anywhere on one path but one on another; AGENTS.md only.
begin l-agents-only
w AGENTS.md '# Root agents\n\nMARKER-l-root-agents\n'
w AGENTS.override.md '# Root override\n\nMARKER-l-root-override\n'
w packages/api/AGENTS.md '# api agents\n\nMARKER-l-api-agents\n'
w packages/api/CLAUDE.md '# api claude\n\nMARKER-l-api-claude\n'
w packages/web/AGENTS.md '# web agents\n\nMARKER-l-web-agents\n'
w packages/web/QWEN.md '# web qwen\n\nMARKER-l-web-qwen\n'
w packages/docs/CLAUDE.md '# docs claude\n\nMARKER-l-docs-claude\n'
w packages/docs/QWEN.md '# docs qwen\n\nMARKER-l-docs-qwen\n'

# m: Claude's transforms one at a time: CRLF with frontmatter only, CRLF with
#    a comment only, comments with trailing text, inline and unclosed
#    comments, a comment opener in a code span, indented frontmatter-like text.
begin m-transforms
w CLAUDE.md '---\r\nname: root\r\n---\r\n# Root\r\n\r\nMARKER-m-root\r\n'
w AGENTS.md '# agents\n\nMARKER-m-root-agents\n'
w packages/a/CLAUDE.md '# A\r\n\r\nMARKER-m-a\r\n\r\n<!-- MARKER-m-a-comment -->\r\n\r\nMARKER-m-a-end\r\n'
w packages/a/b/CLAUDE.md '# B\n\n<!-- MARKER-m-b-comment --> MARKER-m-b-after-close\n\nText <!-- MARKER-m-b-inline --> stays\n\n   <!-- indented\nMARKER-m-b-multiline -->\nMARKER-m-b-next-line\n\n`<!--` in a span MARKER-m-b-span\n\n<!-- never closed MARKER-m-b-unclosed\n\nMARKER-m-b-after-unclosed\n'
w packages/a/b/c/CLAUDE.md '\xEF\xBB\xBF  \n\n---\nnot: frontmatter\n---\nMARKER-m-c\n\n\n'
