/** A command whose implementation has not landed yet: it says so plainly instead of pretending. */
export function notYet(name: string) {
  return async (): Promise<number> => {
    process.stderr.write(`askcode ${name}: not available in this build yet\n`);
    return 1;
  };
}
