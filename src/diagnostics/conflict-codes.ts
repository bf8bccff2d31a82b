/**
 * The kinds of conflict event and the diagnostic code each is reported as: a
 * leaf, so that severity (validate/) decides by kind without importing the
 * conflict detector (conflicts/ imports validate/, never the other way).
 */
export type ConflictKind = 'override' | 'shadow' | 'violation' | 'contradiction' | 'duplicate' | 'copy';

export const CODE_OF: Record<ConflictKind, string> = {
  override: 'RC3101', shadow: 'RC3102', contradiction: 'RC3103', duplicate: 'RC3104', copy: 'RC3105', violation: 'RC3201',
};
