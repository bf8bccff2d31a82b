/**
 * Paths of CI configuration: files a CI service runs with the repository's
 * secrets. One pattern for the lint rule that notes an instruction to edit
 * them (RC6208, dangerous-commands.ts) and for rulec check's risk row that
 * asks for a review when such an instruction is added (src/diff/risk-table.ts).
 */
export const CI_CONFIG_SOURCE = String.raw`(?<![\w-])(?:\.github\/(?:workflows|actions)(?![\w-]|\.\w)|\.gitlab-ci\.ya?ml\b|\.gitlab\/ci\/|\.circleci\/config\.ya?ml\b|\.buildkite\/|\.travis\.yml\b|\.drone\.yml\b|azure-pipelines\.ya?ml\b|bitbucket-pipelines\.yml\b)|\b[Jj]enkinsfile\b`;
