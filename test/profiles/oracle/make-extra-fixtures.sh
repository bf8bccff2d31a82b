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

# Symbolic links in fixtures: `l LINK TARGET` (TARGET relative to LINK's directory).
l() { local f="$R/$1"; mkdir -p "$(dirname "$f")"; ln -s "$2" "$f"; }

# n: .claude/rules ordering and selection: plain rules, rules with a
#    description, with other frontmatter, with paths: in every spelling,
#    nested rule directories, non-.md files, rules in a directory on the way
#    to cwd and in cwd itself, and user rules in the home directory.
begin n-claude-rules
w CLAUDE.md '# Root\n\nMARKER-n-root\n'
w CLAUDE.local.md 'MARKER-n-local\n'
w .claude/rules/a.md '# a\n\nMARKER-n-rule-a-plain\n'
w .claude/rules/b.md '---\ndescription: b rule\n---\nMARKER-n-rule-b-desc\n'
w .claude/rules/c.md 'MARKER-n-rule-c-plain\n'
w .claude/rules/0.md '---\ndescription: ""\n---\nMARKER-n-rule-0-empty-desc\n'
w .claude/rules/f.md '---\ntitle: f\n---\nMARKER-n-rule-f-title\n'
w .claude/rules/e.md '---\ndescription: e rule\npaths: "src/**"\n---\nMARKER-n-rule-e-desc-paths\n'
w .claude/rules/g.md '---\npaths: []\n---\nMARKER-n-rule-g-empty-list\n'
w .claude/rules/h.md '---\npaths: ""\n---\nMARKER-n-rule-h-empty-string\n'
w .claude/rules/i.md '---\npaths:\n---\nMARKER-n-rule-i-null\n'
w .claude/rules/j.md '---\nglobs: "**"\n---\nMARKER-n-rule-j-globs-key\n'
w .claude/rules/k.local.md 'MARKER-n-rule-k-local\n'
w .claude/rules/notes.txt 'MARKER-n-rule-txt\n'
w .claude/rules/UPPER.MD 'MARKER-n-rule-upper-ext\n'
w .claude/rules/sub/d.md '---\ndescription: d rule\n---\nMARKER-n-rule-sub-d-desc\n'
w .claude/rules/sub/a2.md 'MARKER-n-rule-sub-a2\n'
w .claude/rules/sub/deep/z.md 'MARKER-n-rule-sub-deep-z\n'
w .claude/rules/sub-x.md 'MARKER-n-rule-sub-x\n'
w packages/.claude/rules/mid.md 'MARKER-n-mid-rule\n'
w packages/api/CLAUDE.md 'MARKER-n-api-claude\n'
w packages/api/.claude/rules/api.md 'MARKER-n-api-rule\n'
w packages/api/.claude/rules/api-desc.md '---\ndescription: api rule\n---\nMARKER-n-api-rule-desc\n'
w packages/api/.claude/rules/api-paths.md '---\npaths: "src/**"\n---\nMARKER-n-api-rule-paths\n'
w packages/api/src/index.ts 'export {};\n'
R="$OUT/n-claude-rules.home"; rm -rf "$R"; mkdir -p "$R"
w .claude/rules/u1.md 'MARKER-n-user-u1\n'
w .claude/rules/u2.md '---\ndescription: user rule\n---\nMARKER-n-user-u2-desc\n'
w .claude/rules/nested/u3.md 'MARKER-n-user-u3\n'

# o: what each agent takes for an @import: prose (@param), e-mail-like
#    words, @~/, @./x vs @x, mid-word and after punctuation, trailing
#    punctuation, extensionless and missing targets, code spans (one, two
#    backticks, across lines), ``` and ~~~ fences, indented code, comments,
#    a directory, a URL, an absolute path, a parent path, odd first
#    characters, a tab before @, self-imports and a blank file.
begin o-at-imports
BODY='Use @param tags in JSDoc.\n\nMail name@docs/mail.md please.\n\nHome: @~/home-note.md\n\nDot: @./docs/a.md\n\nBare: @docs/b.md\n\nMid@docs/c.md word\n\n(@docs/d.md) and @docs/e.md, trailing\n\nScoped @scope/name package and @scope/missing one\n\nSpan `@docs/span.md` and ``@docs/span2.md`` and `multi\nline @docs/span3.md`\n\n```\n@docs/fence.md\n```\n\n~~~\n@docs/tilde.md\n~~~\n\n    @docs/indented.md\n\n<!-- @docs/comment.md -->\n\n@docs/missing.md\n\nDir @docs\n\nURL @https://example.com/x.md\n\nAbs @/nonexistent-rulec/x.md\n\nUp @../_outside/outside.md\n\nOdd @1docs.md and @-x.md and @@docs/f.md and @.hidden.md\n\nTab\t@docs/g.md\n\n@docs/self.md\n'
w GEMINI.md "# Gemini\n\nMARKER-o-root-gemini\n\n$BODY\nMARKER-o-root-gemini-end\n"
w CLAUDE.md "# Claude\n\nMARKER-o-root-claude\n\n$BODY\nMARKER-o-root-claude-end\n"
for f in a b c d e mail span span2 span3 fence tilde indented comment f g; do w "docs/$f.md" "MARKER-o-$f\n"; done
w docs/self.md 'MARKER-o-self\n@self.md\n@./self.md\n'
w scope/name 'MARKER-o-scope-name\n'
w .hidden.md 'MARKER-o-hidden\n'
w 1docs.md 'MARKER-o-digit\n'
w -x.md 'MARKER-o-dash\n'
w packages/api/GEMINI.md 'MARKER-o-api-gemini\n@GEMINI.md\n@./GEMINI.md\nMARKER-o-api-gemini-end\n'
w packages/api/CLAUDE.md 'MARKER-o-api-claude\n@CLAUDE.md\n@./CLAUDE.md\n@../../docs/a.md\nMARKER-o-api-claude-end\n'
w packages/web/GEMINI.md '  \n\n'
w packages/web/index.ts 'export {};\n'
R="$OUT/o-at-imports.home"; rm -rf "$R"; mkdir -p "$R"
w home-note.md 'MARKER-o-home-note\n'
w .claude/home-note.md 'MARKER-o-claude-home-note\n'

# p: Copilot's own files and its directory walk: copilot-instructions.md,
#    AGENTS.md, CLAUDE.md (with imports) and GEMINI.md at the root, in cwd
#    and in the directories between; .github/instructions files with every
#    applyTo / excludeAgent spelling; .claude/rules in the root, on the way
#    and in cwd.
begin p-copilot-files
for d in "" a/ a/b/ a/b/c/; do n=$(echo "${d:-root}" | tr -d /); w "${d}.github/copilot-instructions.md" "MARKER-p-gh-$n\n"; w "${d}AGENTS.md" "MARKER-p-agents-$n\n"; done
w GEMINI.md 'MARKER-p-gemini-root\n@docs/z.md\n'
w a/GEMINI.md 'MARKER-p-gemini-a\n'
w a/b/c/GEMINI.md 'MARKER-p-gemini-abc\n'
w CLAUDE.md 'MARKER-p-claude-root\n@AGENTS.md\n@./docs/x.md and `@docs/span.md`\nname@docs/y.md\nSee @GEMINI.md, then (@docs/y.md).\n'
w a/b/CLAUDE.md 'MARKER-p-claude-ab\n@../../docs/x.md\n@AGENTS.md\n'
w .claude/CLAUDE.md 'MARKER-p-dot-claude\n'
w CLAUDE.local.md 'MARKER-p-claude-local\n'
for f in x y z span; do w "docs/$f.md" "MARKER-p-docs-$f\n"; done
I=.github/instructions
w $I/all.instructions.md '---\napplyTo: "**"\n---\nMARKER-p-ins-all\n'
w $I/star.instructions.md '---\napplyTo: "*"\n---\nMARKER-p-ins-star\n'
w $I/anystar.instructions.md '---\napplyTo: "**/*"\n---\nMARKER-p-ins-anystar\n'
w $I/two.instructions.md '---\napplyTo: "**, **/*"\n---\nMARKER-p-ins-two-all\n'
w $I/mix.instructions.md '---\napplyTo: "src/**, **"\n---\nMARKER-p-ins-mix\n'
w $I/list.instructions.md '---\napplyTo: "**/*.ts, **/*.js"\n---\nMARKER-p-ins-list\n'
w $I/dotstar.instructions.md '---\napplyTo: "**/*.*"\n---\nMARKER-p-ins-dotstar\n'
w $I/dotslash.instructions.md '---\napplyTo: "./**"\n---\nMARKER-p-ins-dotslash\n'
w $I/bare.instructions.md '---\napplyTo: **\n---\nMARKER-p-ins-bare\n'
w $I/spaces.instructions.md '---\napplyTo: " ** "\n---\nMARKER-p-ins-spaces\n'
w $I/ylist.instructions.md '---\napplyTo:\n  - "**"\n---\nMARKER-p-ins-ylist\n'
w $I/ylist-path.instructions.md '---\napplyTo:\n  - "src/**"\n  - "lib/**"\ndescription: two globs\n---\nMARKER-p-ins-ylist-path\n'
w $I/emptyapply.instructions.md '---\napplyTo: ""\n---\nMARKER-p-ins-emptyapply\n'
w $I/none.instructions.md 'MARKER-p-ins-none\n'
w $I/descr.instructions.md '---\ndescription: only a description\n---\nMARKER-p-ins-descr\n'
w $I/path-desc.instructions.md '---\napplyTo: "src/**"\ndescription: "Desc | with a pipe"\n---\nMARKER-p-ins-path-desc\n'
w $I/blank.instructions.md ''
w $I/bom.instructions.md '\xEF\xBB\xBF---\r\napplyTo: "**"\r\n---\r\nMARKER-p-ins-bom-crlf\r\n'
w $I/badyaml.instructions.md '---\ndescription: [bad\n---\nMARKER-p-ins-badyaml\n'
w $I/ex-coding.instructions.md '---\napplyTo: "**"\nexcludeAgent: "coding-agent"\n---\nMARKER-p-ins-ex-coding\n'
w $I/ex-cloud.instructions.md '---\napplyTo: "**"\nexcludeAgent: "cloud-agent"\n---\nMARKER-p-ins-ex-cloud\n'
w $I/ex-review.instructions.md '---\napplyTo: "**"\nexcludeAgent: "code-review"\n---\nMARKER-p-ins-ex-review\n'
w $I/ex-list.instructions.md '---\napplyTo: "**"\nexcludeAgent: ["coding-agent"]\n---\nMARKER-p-ins-ex-list\n'
w $I/ex-comma.instructions.md '---\napplyTo: "**"\nexcludeAgent: "code-review, coding-agent"\n---\nMARKER-p-ins-ex-comma\n'
w $I/ex-case.instructions.md '---\napplyTo: "**"\nexcludeAgent: "Coding-Agent"\n---\nMARKER-p-ins-ex-case\n'
w $I/ex-path.instructions.md '---\napplyTo: "src/**"\nexcludeAgent: "coding-agent"\n---\nMARKER-p-ins-ex-path\n'
w $I/UPPER.instructions.md '---\napplyTo: "**"\n---\nMARKER-p-ins-upper\n'
w $I/sub/deep/z.instructions.md '---\napplyTo: "**"\n---\nMARKER-p-ins-sub-deep\n'
w $I/sub.instructions.md '---\napplyTo: "**"\n---\nMARKER-p-ins-sub-sibling\n'
w $I/sub-a.instructions.md '---\napplyTo: "**"\n---\nMARKER-p-ins-sub-dash\n'
w $I/plain.md '---\napplyTo: "**"\n---\nMARKER-p-ins-plain-md\n'
w a/$I/mid.instructions.md '---\napplyTo: "**"\n---\nMARKER-p-ins-mid\n'
w a/b/c/$I/cwd-all.instructions.md '---\napplyTo: "**"\n---\nMARKER-p-ins-cwd-all\n'
w a/b/c/$I/cwd-path.instructions.md '---\napplyTo: "src/**"\ndescription: cwd path\n---\nMARKER-p-ins-cwd-path\n'
w .claude/rules/r1.md 'MARKER-p-rule-r1\n'
w .claude/rules/r2.md '---\ndescription: r2 desc\n---\nMARKER-p-rule-r2-desc\n'
w .claude/rules/r3.md '---\npaths: "src/**"\ndescription: r3 desc\n---\nMARKER-p-rule-r3-paths\n'
w .claude/rules/r5.md '---\npaths:\n  - "src/**"\n  - "lib/**"\n---\nMARKER-p-rule-r5-paths-list\n'
w .claude/rules/sub/r4.md 'MARKER-p-rule-sub-r4\n'
w a/.claude/rules/mid.md 'MARKER-p-rule-mid\n'
w a/b/c/.claude/rules/cwd.md 'MARKER-p-rule-cwd\n'
w a/b/c/.claude/rules/cwd-paths.md '---\npaths: "src/**"\n---\nMARKER-p-rule-cwd-paths\n'
w a/b/c/src/index.ts 'export {};\n'

# q: symbolic links between instruction files: a chain CLAUDE.md → AGENTS.md
#    → .agents/AGENTS.md, GEMINI.md → AGENTS.md, links in the same and in
#    other directories, a linked rule and a linked rules directory; and two
#    regular files with the same bytes (packages/dup).
begin q-symlinks
w .agents/AGENTS.md '# Agents\n\nMARKER-q-agents-real\n'
l AGENTS.md .agents/AGENTS.md
l CLAUDE.md AGENTS.md
l GEMINI.md AGENTS.md
w .agents/skills/s/SKILL.md 'skill\n'
w packages/api/AGENTS.md 'MARKER-q-api-agents\n'
l packages/api/CLAUDE.md AGENTS.md
l packages/api/.claude/CLAUDE.md ../CLAUDE.md
w packages/web/AGENTS.md 'MARKER-q-web-agents\n'
l packages/web/CLAUDE.md ../api/AGENTS.md
w docs/rule.md 'MARKER-q-linked-rule\n'
w docs/rules-dir/r.md 'MARKER-q-dirlink-rule\n'
l .claude/rules/link.md ../../docs/rule.md
l .claude/rules/dirlink ../../docs/rules-dir
w .claude/rules/own.md 'MARKER-q-own-rule\n'
w packages/dup/AGENTS.md '# Same bytes\n\nMARKER-q-dup\n'
w packages/dup/CLAUDE.md '# Same bytes\n\nMARKER-q-dup\n'

# r: CLAUDE.md that is exactly `@AGENTS.md`, at the root and in a package,
#    for sessions started at the root, in the package and in a directory
#    without instruction files.
begin r-claude-at-agents
w CLAUDE.md '@AGENTS.md\n'
w AGENTS.md '# Agents\n\nMARKER-r-root-agents\n'
w packages/x/CLAUDE.md '@AGENTS.md\n'
w packages/x/AGENTS.md 'MARKER-r-x-agents\n'
w packages/y/index.ts 'export {};\n'

# s: where an @import token starts and ends, one case per paragraph, each
#    naming its own target file (docs/tNN.md): punctuation before and after
#    the token, a #fragment, an escaped space, case, a missing extension, a
#    trailing slash, `..` and `//` inside, two tokens glued together, a
#    no-break space before @, a non-ASCII name, inline markup around it, a
#    path below a file (ENOTDIR) and an HTML block.
begin s-import-tokens
BODY=''
add() { BODY="$BODY$1\n\n"; }
add '[@docs/t01.md]'; add '"@docs/t02.md"'; add "'@docs/t03.md'"; add '*@docs/t04.md*'; add 'x:@docs/t05.md'
add 'see @docs/t06.md.'; add '@docs/t07.md;'; add '@docs/t08.md:'; add '@docs/t09.md!'; add '@docs/t10.md?'
add '@docs/t11.md]'; add '@docs/t12.md"'; add "@docs/t13.md'"; add '@docs/t14.md>'; add '<@docs/t15.md>'
add '@docs/t16.md*'; add '{@docs/t17.md}'; add '@docs/t18.md#anchor'; add '@docs/t19.md...'; add 'x-@docs/t20.md'
add 'x/@docs/t21.md'; add '@docs/t22.md|'; add '@docs/t\\ 23.md'; add '@"docs/t24.md"'; add '@docs/t25.md)'
add '**@docs/t26.md**'; add '_@docs/t27.md_'; add '@docs/T28.MD'; add '@docs/t29'; add '@docs/t30.md/'
add '@./docs/../docs/t31.md'; add '@docs//t32.md'; add '@docs/t34.md,@docs/t35.md'; add '@docs/t37.md&'; add '@docs/t38.md='
add '@docs/t39.md+'; add '@docs/t40.md%20'; add '@docs/t41.md~'; add '@docs/t43.md$'; add 'x=@docs/t44.md'
add '@docs/t45.md@docs/t46.md'; add '\xC2\xA0@docs/t47.md'; add '@docs/t\xC3\xBC48.md'; add '**bold**@docs/t49.md'; add '`code`@docs/t50.md'
add '@docs/t01.md/x.md'; add '<details>\n@docs/t51.md\n</details>'; add '> @docs/t52.md'; add '- @docs/t53.md'; add '# @docs/t54.md'
add '@docs/t55.md\\'; add '\\@docs/t56.md'; add '@(docs/t57.md)'; add '@docs/t58.md\xEF\xBC\x89'; add '@docs/t59.md\xE3\x80\x82'
w CLAUDE.md "MARKER-s-claude\n\n${BODY}MARKER-s-claude-end\n"
w GEMINI.md "MARKER-s-gemini\n\n${BODY}MARKER-s-gemini-end\n"
for n in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20 21 22 24 25 26 27 28 29 30 31 32 34 35 37 38 39 40 41 43 44 45 46 47 49 50 51 52 53 54 55 56 57 58 59; do
  w "docs/t$n.md" "MARKER-s-t$n\n"
done
w 'docs/t 23.md' 'MARKER-s-t23\n'
w "docs/t$(printf '\xC3\xBC')48.md" 'MARKER-s-t48\n'

# t: more token boundaries for Copilot (a character before @, punctuation
#    after the path), a CRLF CLAUDE.md, and @imports written in every other
#    file an agent reads: AGENTS.md, GEMINI.md, copilot-instructions.md (an
#    npm package name among them), .github/instructions, .claude/rules,
#    CLAUDE.local.md and .claude/CLAUDE.md.
begin t-import-places
BODY=''
add() { BODY="$BODY$1\n\n"; }
i=0
for c in . @ + '~' '#' '!' '?' , ';' '|' '&' % '$' '^' ')' ']' '}' '>' _ 'x' '\t' '\xE2\x80\x94' '='; do
  i=$((i+1)); n=$(printf 'u%02d' $i); add "${c}@docs/$n.md"; w "docs/$n.md" "MARKER-t-$n\n"
done
i=0
for s in ').' '.)' '",' '.,' ':)' "'." '!)' '?"' '>.' ']:' '}.' '-' _ @ '(' '[' '{' '<' '`' '*.' '.*' '\xE2\x80\x9D' '.\xE2\x80\x9D'; do
  i=$((i+1)); n=$(printf 'v%02d' $i); add "@docs/$n.md$s"; w "docs/$n.md" "MARKER-t-$n\n"
done
add 'A `span` then @docs/w01.md and `@docs/w02.md` then @docs/w03.md'
for n in w01 w02 w03 w04 w05 w06 w07 w08 w09 w10 w11; do w "docs/$n.md" "MARKER-t-$n\n"; done
w CLAUDE.md "MARKER-t-claude\n\n${BODY}MARKER-t-claude-end\n"
w AGENTS.md 'MARKER-t-agents\n@docs/w04.md\n'
w GEMINI.md 'MARKER-t-gemini\n@docs/w05.md\n'
w .github/copilot-instructions.md 'MARKER-t-copilot-repo\nUse @scope/name from npm and @types/node; see @docs/w06.md\n'
w .github/instructions/all.instructions.md '---\napplyTo: "**"\n---\nMARKER-t-ins\n@docs/w07.md\n'
w .claude/rules/rule.md 'MARKER-t-rule\n@../../docs/w08.md\n'
w .claude/CLAUDE.md 'MARKER-t-dot-claude\n@../docs/w09.md\n'
w CLAUDE.local.md 'MARKER-t-local\n@docs/w10.md\n'
w scope/name 'MARKER-t-scope-name\n'
w packages/crlf/CLAUDE.md 'MARKER-t-crlf\r\n@../../docs/w11.md\r\n@../../docs/w11.md and more\r\nMARKER-t-crlf-end\r\n'
w packages/crlf/index.ts 'export {};\n'

# u: blank files: a blank CLAUDE.md beside AGENTS.md, a blank GEMINI.md and
#    copilot-instructions.md, rules with only frontmatter or only a comment,
#    a blank import, an empty nested AGENTS.md.
begin u-blank-files
w CLAUDE.md '\n  \n'
w AGENTS.md 'MARKER-u-agents\n'
w GEMINI.md '  \n'
w .github/copilot-instructions.md ''
w .claude/rules/fm-only.md '---\ndescription: only frontmatter\n---\n'
w .claude/rules/comment-only.md '<!-- only a comment -->\n'
w .claude/rules/real.md 'MARKER-u-rule\n@../../docs/blank.md\n'
w CLAUDE.local.md '@docs/blank.md\n'
w docs/blank.md '\n'
w packages/api/AGENTS.md ''
w packages/api/CLAUDE.md 'MARKER-u-api-claude\n'
w packages/api/GEMINI.md 'MARKER-u-api-gemini\n'
