/** The first line of an error's message (a thrown value's text otherwise): a reason said inside one line of ours. */
export function errorLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
