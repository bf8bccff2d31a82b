/**
 * The stages compile() reports as it enters each one (CompileOptions.onStage),
 * in order, each with the count of what it works on (none for discovery:
 * nothing is counted before it): instruction files parsed, paths resolved,
 * sources compared, blocks counted, contexts rendered. The CLI's progress
 * line reads them (cli/progress.ts).
 */
export const COMPILE_STAGES = ['discover', 'parse', 'resolve', 'conflicts', 'count', 'render'] as const;
export type CompileStage = (typeof COMPILE_STAGES)[number];
export type OnStage = (stage: CompileStage, count?: number) => void;
