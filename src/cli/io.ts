/** The CLI's only contact with stdout/stderr. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  cwd: string;
}

export const processIo: Io = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  cwd: process.cwd(),
};

export const EXIT = { clean: 0, errors: 1, failure: 2 } as const;
