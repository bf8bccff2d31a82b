/** A bug in rulec itself. Exit code 2, reported with a request to file an issue. */
export class InternalError extends Error {
  override name = 'InternalError';
}

/** The caller asked for something impossible (bad flag, missing directory). Exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
