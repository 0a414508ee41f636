/** Where CLI commands and benchmarks register themselves (a module of its own, so import order never matters). */
export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(args: string[]): Promise<number>;
}

export interface Bench {
  name: string;
  summary: string;
  /** Printed for `askcode bench <name> --help` (handled by the bench command, not by each bench). */
  usage: string;
  run(args: string[]): Promise<number>;
}

export const commands: Command[] = [];
export const benches: Bench[] = [];

export function registerCommand(c: Command): void {
  commands.push(c);
}

export function registerBench(b: Bench): void {
  benches.push(b);
}
