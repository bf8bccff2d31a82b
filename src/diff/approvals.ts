/**
 * The approvals contract (pure): what the pull-request workflow hands to
 * `rulec check` about the reviews of the head commit.
 *
 *     { "head": "<full sha of the commit the approvals are for>",
 *       "approvers": ["alice", "bob"],
 *       "teams": { "@acme/platform": ["alice"] } }
 *
 * `approvers` are the logins whose latest review of `head` is an approval;
 * `teams` lists, for the teams named as owners in the policy, which of those
 * approvers belong to them. Approvals for another commit than the one checked
 * count for nothing (RC8004), so a push after an approval needs a new one.
 */
import { diag } from '../diagnostics/diagnostic.js';
import type { StageResult } from '../types.js';
import type { ApprovalsInput } from './check-model.js';

export const NO_APPROVALS: ApprovalsInput = { from: null, head: null, approvers: [], teams: {} };

const HANDLE = /^@?[A-Za-z0-9][A-Za-z0-9._/-]*$/;

/** Approvals as read for one check, with what was wrong with them. */
export function parseApprovals(text: string, from: string, head: string): StageResult<ApprovalsInput> {
  const refuse = (why: string): StageResult<ApprovalsInput> => ({
    value: { ...NO_APPROVALS, from },
    diagnostics: [diag('RC8004', { file: '', message: `approvals from ${from} are not used: ${why}` })],
  });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse('not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return refuse('not a JSON object');
  const o = value as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => k !== 'head' && k !== 'approvers' && k !== 'teams');
  if (extra.length > 0) return refuse(`unknown key ${JSON.stringify(extra[0])}`);
  if (typeof o.head !== 'string' || !/^[0-9a-f]{40,64}$/.test(o.head)) return refuse('"head" must be the full commit id the approvals are for');
  if (!isHandles(o.approvers)) return refuse('"approvers" must be a list of logins');
  const teams: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  if (o.teams !== undefined) {
    if (typeof o.teams !== 'object' || o.teams === null || Array.isArray(o.teams)) return refuse('"teams" must map team names to lists of logins');
    for (const [team, members] of Object.entries(o.teams as Record<string, unknown>)) {
      if (!HANDLE.test(team) || !isHandles(members)) return refuse(`"teams" entry ${JSON.stringify(team)} must be a list of logins`);
      teams[team] = [...members];
    }
  }
  if (o.head !== head) return refuse(`they are for commit ${o.head.slice(0, 12)}, not for the head ${head.slice(0, 12)} being checked`);
  return { value: { from, head: o.head, approvers: [...o.approvers], teams }, diagnostics: [] };
}

function isHandles(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string' && HANDLE.test(x));
}
