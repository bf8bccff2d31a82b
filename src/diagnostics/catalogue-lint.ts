/**
 * RC6xxx: the lint catalogue (secrets, hidden Unicode, dangerous commands, injection).
 * RC60xx secrets, RC61xx hidden Unicode, RC62xx dangerous commands,
 * RC63xx prompt-injection phrasing, RC64xx fence forgery, RC65xx text hygiene.
 * The rules themselves live in src/validate/lint/ (one file per family).
 */
import type { CatalogueEntry } from './catalogue.js';

const ROTATE = 'remove it from the file and its git history, then revoke and rotate the credential';
const SECRET_WHY =
  'Instruction files are committed, compiled into bundles and injected into every agent session, so a credential in one is disclosed to every model provider, log and transcript that sees the context, and to everyone who can read the repository. The message shows only a public prefix and the length, never the secret.';

const secret = (code: string, title: string, what: string): CatalogueEntry =>
  ({ code, severity: 'error', title, hint: ROTATE, explanation: `${what} ${SECRET_WHY}` });

export const LINT_CODES: CatalogueEntry[] = [
  secret('RC6001', 'AWS access key id', 'The file contains an AWS access key id (AKIA…/ASIA…, 20 characters). The documented example key (…EXAMPLE) is ignored.'),
  secret('RC6002', 'AWS secret access key', 'The file assigns a 40-character value to aws_secret_access_key (or a similarly named key).'),
  secret('RC6003', 'GitHub token', 'The file contains a GitHub token (ghp_, gho_, ghu_, ghs_, ghr_ or github_pat_).'),
  secret('RC6004', 'GitLab token', 'The file contains a GitLab personal access token (glpat-).'),
  secret('RC6005', 'Slack token', 'The file contains a Slack token (xoxb-, xoxp-, xoxa-, xoxr-, xoxs-).'),
  secret('RC6006', 'Slack webhook URL', 'The file contains a Slack incoming-webhook URL (https://hooks.slack.com/…); anyone holding it can post to the channel.'),
  secret('RC6007', 'Stripe live key', 'The file contains a Stripe live secret or restricted key (sk_live_, rk_live_).'),
  secret('RC6008', 'OpenAI API key', 'The file contains an OpenAI-style API key (sk-…, sk-proj-…). Placeholders such as sk-... or sk-your-key are ignored.'),
  secret('RC6009', 'Anthropic API key', 'The file contains an Anthropic API key (sk-ant-…).'),
  secret('RC6010', 'Google API key', 'The file contains a Google API key (AIza… followed by 35 characters).'),
  secret('RC6011', 'private key block', 'The file contains a PEM private key block (-----BEGIN … PRIVATE KEY----- followed by key material). A BEGIN line followed by "..." is treated as an illustration and ignored.'),
  secret('RC6012', 'JSON Web Token', 'The file contains a JSON Web Token: three base64url parts whose header decodes to JSON with an "alg" field. Even expired tokens reveal claims and signing details.'),
  secret('RC6013', 'secret assignment', 'A key whose name ends in password, secret, token or api_key is assigned a value that looks random (letters and digits, high Shannon entropy). Placeholders (<your-token>, xxx, ${VAR}, $VAR, changeme, example, ...) and references to environment variables or secret stores are ignored.'),

  { code: 'RC6101', severity: 'error', title: 'bidirectional control character',
    hint: 'delete the character; if the text is genuinely right-to-left, the characters alone render correctly without controls',
    explanation: 'The line contains a Unicode bidirectional control (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C). These reorder how text is displayed, so what a reviewer sees in a diff differs from what the model reads (the "Trojan Source" technique). The first one on each line is reported with its code point.' },
  { code: 'RC6102', severity: 'error', title: 'zero-width character',
    hint: 'delete the invisible character',
    explanation: 'The line contains a zero-width character (U+200B, U+200C, U+200D, U+2060, or U+FEFF after the start of the file). They are invisible in review but split words for the model and for keyword searches, which hides phrasing from reviewers and tools. A zero-width joiner inside an emoji sequence (👩‍💻) and joiners between letters of scripts that need them (Arabic, Indic) are not reported.' },
  { code: 'RC6103', severity: 'error', title: 'Unicode tag characters (ASCII smuggling)',
    hint: 'delete the invisible characters and treat the file as tampered with',
    explanation: 'The line contains Unicode tag characters (U+E0000–U+E007F). They render as nothing, but each one maps to an ASCII character that language models read, so they carry instructions no reviewer can see ("ASCII smuggling"). The message decodes and shows the hidden text. Emoji subdivision flags (🏴 followed by tag letters and U+E007F) are not reported.' },
  { code: 'RC6104', severity: 'error', title: 'invisible format character',
    hint: 'delete the invisible character',
    explanation: 'The line contains an invisible formatting character: a soft hyphen (U+00AD), U+180E, invisible operators (U+2061–U+2064), U+034F, Hangul fillers, a variation selector (U+FE00–U+FE0F) that does not directly follow an emoji or ideograph, or a supplementary variation selector (U+E0100–U+E01EF) not following an ideograph. Runs of variation selectors are a known way to hide data after a visible character.' },

  { code: 'RC6201', severity: 'error', title: 'download piped into a shell',
    hint: 'pin the script by version and checksum, or install through a package manager',
    explanation: 'The file tells the agent to download a script and run it in one step (curl … | sh, sh -c "$(curl …)", irm … | iex). The agent will run whatever the server returns at that moment, with the user\'s privileges and without review. Agents copy such commands verbatim, so this is reported inside code blocks too.' },
  { code: 'RC6202', severity: 'warning', title: 'recursive delete of a broad path',
    hint: 'name the exact directory to delete, relative to the project',
    explanation: 'The file contains rm -r/-rf on a broad target (/, ~, $HOME, *, . or ..). One wrong working directory or an unset variable turns it into deleting the user\'s home or the whole checkout.' },
  { code: 'RC6203', severity: 'warning', title: 'world-writable permissions',
    hint: 'grant the narrowest permissions needed (e.g. 755 for directories, 644 for files)',
    explanation: 'The file contains chmod 777 (or a+rwx), which makes files writable and executable by every user on the machine. It is almost always a workaround for a permission problem that has a narrower fix.' },
  { code: 'RC6204', severity: 'warning', title: 'TLS verification disabled',
    hint: 'fix the certificate chain (e.g. NODE_EXTRA_CA_CERTS, REQUESTS_CA_BUNDLE) instead of turning verification off',
    explanation: 'The file turns off TLS certificate checks (NODE_TLS_REJECT_UNAUTHORIZED=0, curl -k/--insecure, wget --no-check-certificate, verify=False, GIT_SSL_NO_VERIFY, http.sslVerify false, strict-ssl false, rejectUnauthorized: false). Every download and API call the agent makes afterwards can be intercepted and altered.' },
  { code: 'RC6205', severity: 'warning', title: 'force-push to a protected branch',
    hint: 'push to a branch and open a pull request; rewrite protected history only by hand',
    explanation: 'The file tells the agent to force-push to main, master, a release branch, production or trunk. A force-push rewrites shared history and can silently discard other people\'s commits. Mentions that forbid it ("never force-push to main") are not reported.' },
  { code: 'RC6206', severity: 'warning', title: 'skipped hooks or tests',
    hint: 'fix the failing hook or test instead of skipping it',
    explanation: 'The file tells the agent to bypass checks: git --no-verify, HUSKY=0, -DskipTests, or prose like "skip the tests". Hooks and tests are what catch an agent\'s mistakes; an instruction to skip them removes the safety net. Phrasing that forbids it ("never use --no-verify") is not reported.' },
  { code: 'RC6207', severity: 'warning', title: 'edits CI configuration or credentials',
    hint: 'leave CI and credential files to humans, or scope the instruction to a reviewed process',
    explanation: 'The file tells the agent to edit, write, read or send CI workflows (.github/workflows, .gitlab-ci.yml), .env files or credential stores (~/.aws/credentials, ~/.ssh, ~/.netrc, ~/.npmrc, private keys). Changing CI can exfiltrate repository secrets; touching credential files gives an agent more than it needs. Mentions without an editing verb, and forbidding phrasing, are not reported.' },

  { code: 'RC6301', severity: 'error', title: 'ignore-previous-instructions phrasing',
    hint: 'remove the phrase; if the file documents attacks, quote them in a code block',
    explanation: 'The file asks the agent to ignore, disregard or forget its previous (prior, above) instructions. This is the classic prompt-injection opener: it has no legitimate use in a standing instruction file. Phrases in code blocks or inline code, and negated ones, are not reported.' },
  { code: 'RC6302', severity: 'error', title: 'system-prompt override',
    hint: 'remove the phrase; if the file documents attacks, quote them in a code block',
    explanation: 'The file asks the agent to disregard, override, bypass, reveal or repeat its system or developer prompt. Instruction files sit below the system prompt; text that tries to set it aside or leak it is an injection attempt.' },
  { code: 'RC6303', severity: 'warning', title: 'jailbreak persona',
    hint: 'remove the role-play override',
    explanation: 'The file tries to switch the agent into an unrestricted persona ("you are now DAN", "developer mode enabled", "act as an unfiltered model", "you are no longer bound by"). Such text aims to release the model from its rules rather than guide its work.' },
  { code: 'RC6304', severity: 'warning', title: 'concealment from the user',
    hint: 'instructions should never ask the agent to keep things from the person it works for',
    explanation: 'The file tells the agent not to tell the user something, to hide something from the user, or to act without telling the user. Legitimate instructions have nothing to hide from the person the agent works for; concealment is how injected instructions avoid being noticed.' },
  { code: 'RC6305', severity: 'error', title: 'exfiltration phrasing',
    hint: 'remove the instruction and check where the file came from',
    explanation: 'The file asks the agent to send, post or upload file contents, secrets, tokens, credentials, environment variables or the conversation to an outside URL. This is how injected instructions steal data through an agent\'s network tools.' },

  { code: 'RC6401', severity: 'error', title: "imitation of rulec's provenance fence",
    hint: 'remove the tag; rulec adds provenance fences itself',
    explanation: 'The file contains <rulec-source …> or </rulec-source>, the fences rulec wraps around each source in rendered context. rulec escapes them so a file cannot close its own fence, but a file that writes one is trying to make the text after it look like it came from another, more trusted source.' },
  { code: 'RC6402', severity: 'error', title: "imitation of an agent's context framing",
    hint: 'remove the framing text',
    explanation: 'The file contains text that agents use to frame injected context: Codex <INSTRUCTIONS>/<user_instructions>, Claude Code <system-reminder> and "Contents of … (project instructions", Gemini CLI "--- Context from:" lines, <loaded_context>, <project_context>. Writing these in a file can make the model believe the text that follows is system or user input rather than a file.' },
  { code: 'RC6403', severity: 'error', title: 'chat-template token',
    hint: 'remove the token',
    explanation: 'The file contains a chat-template control token (<|im_start|>, <|eot_id|>, [INST], <<SYS>> …). Models treat these as turn boundaries, so they let file text pose as a system or user message.' },
  { code: 'RC6404', severity: 'error', title: 'fake conversation turn',
    hint: 'rephrase; quote example dialogues without a turn marker at the start of a line',
    explanation: 'A line starts with "Human:" or "Assistant:", the turn markers of chat transcripts. In standing context they make file text look like part of the conversation, including fake user approvals or fake assistant replies.' },

  { code: 'RC6501', severity: 'warning', title: 'empty file',
    hint: 'delete the file or write its instructions',
    explanation: 'The file is empty, whitespace only, or has frontmatter but no body. It loads nothing, but agents still count and list it, and it usually means a generator or merge went wrong.' },
  { code: 'RC6502', severity: 'warning', title: 'mixed line endings',
    hint: 'normalise the file to LF (or set a .gitattributes eol rule)',
    explanation: 'The file mixes CRLF, LF and/or CR line endings. rulec normalises them, but agents may not, and mixed endings make diffs of instruction files hard to review. Counted on the raw bytes.' },
  { code: 'RC6503', severity: 'error', title: 'NUL bytes',
    hint: 're-save the file as plain UTF-8 text',
    explanation: 'The file contains NUL (0x00) bytes. It is binary or corrupted; agents truncate at the first NUL or skip the file, so what they load is not what the reviewer saw.' },
];
