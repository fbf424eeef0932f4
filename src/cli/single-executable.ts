/** Whether this process is tokencli's single executable (Node's single executable application). */
export function runningAsExecutable(): boolean {
  // node:sea is not a builtin on every Node line; getBuiltinModule answers undefined for one it lacks.
  const sea = process.getBuiltinModule('node:sea') as { isSea?: () => boolean } | undefined;
  return typeof sea?.isSea === 'function' && sea.isSea();
}
