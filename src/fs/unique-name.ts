/**
 * A suffix unique among this machine's processes, for temporary files and lock owner tokens.
 * Not a secret: files are created with O_EXCL in a 0700 directory, so uniqueness is what matters,
 * and avoiding `node:crypto` here keeps it off the start-up path of `tokencli token`.
 */
let counter = 0;

export function uniqueSuffix(): string {
  counter += 1;
  const random = Math.random().toString(36).slice(2, 10);
  return `${process.pid}.${Date.now().toString(36)}.${counter}.${random}`;
}
