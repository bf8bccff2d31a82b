/**
 * Is a candidate value a real secret or an illustration? Secret scanners
 * (gitleaks: per-rule `entropy` and stop words; secretlint: allow lists) tell
 * a credential from documentation by two signals, and so does rulec:
 * the value looks random (Shannon entropy), and it is not a placeholder
 * (`xxxx`, `<your-token>`, `${TOKEN}`, `sk-...`, "example", "changeme" …).
 */

/** Shannon entropy of a string, in bits per character. */
export function shannonEntropy(value: string): number {
  if (value.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  const n = [...value].length;
  for (const c of counts.values()) bits -= (c / n) * Math.log2(c / n);
  return bits;
}

/**
 * Placeholder text: runs of x or *, ellipses, angle-bracket and template
 * variables, and the words documentation uses for fake values. Applied to the
 * secret part of a token only (never to a provider prefix or to the numeric
 * ids of a Slack token, which may legitimately read 123456…).
 */
const PLACEHOLDER =
  /x{4,}|\*{3}|\.{3}|…|<[^>]*>|\$\{|\{\{|^\$|%s|change_?me|example|sample|placeholder|dummy|fake|redacted|your|insert|replace/i;

export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value);
}

/** The secret part of a prefixed token: random enough (gitleaks' per-rule entropy floor) and no placeholder. */
export function randomEnough(part: string, minEntropy = 3): boolean {
  return shannonEntropy(part) >= minEntropy && !isPlaceholder(part);
}

/**
 * A value with no provider prefix (a generic `password=` assignment): letters
 * and digits mixed, high entropy, and none of the sequences people type as
 * filler (000000, 123456, abcdef).
 */
export function looksRandom(value: string): boolean {
  return /\d/.test(value) && /[A-Za-z]/.test(value) && !isPlaceholder(value) &&
    !/0{6}|123456|abcdef/i.test(value) && shannonEntropy(value) >= 3.2;
}
