/**
 * Source ids: the one key a source file has in maps, diagnostics and the
 * manifest's `files`. Root and path are kept apart in the data (SourceFile.root
 * and .rel); the id is only derived from them, never parsed back.
 *
 * A repository file's id is its repo-relative posix path. Files of other roots
 * are spelled `<root>://<rel>`: git (and rulec's own walk) never produce an
 * empty path segment, so no repository path contains `//` and the two spellings
 * can never collide, even with a directory literally named `managed:`.
 */
import type { Root } from '../types.js';

export function sourceId(root: Root, rel: string): string {
  return root === 'repo' ? rel : `${root}://${rel}`;
}
