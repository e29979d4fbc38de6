// What the project's commands (`npm run admin`, `npm run sandbox`) share: their refusals, said as
// they are, and their exit codes.

/** Said to the operator as it is, with exit code 1 (2 for a mistyped command line). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message)
  }
}

export type Env = Record<string, string | undefined>

/** Prints what the command answers, or its refusal on stderr with the refusal's exit code. */
export function runCommand(command: Promise<string>): void {
  command.then(
    (output) => console.log(output),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error))
      process.exitCode = error instanceof CliError ? error.exitCode : 1
    },
  )
}
