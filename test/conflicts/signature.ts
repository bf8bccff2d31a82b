/** The comparable form of an event in fixture expectations: `kind topic sideA | sideB -> adopted`. */
import type { ConflictEvent } from '../../src/conflicts/detect.js';

export function signature(e: ConflictEvent): string {
  const sides = [...new Set(e.sides.map((s) => s.source))].sort().join(' | ');
  return `${e.kind} ${e.topic} ${sides} -> ${e.adopted ?? '-'}`;
}
