import { execFile } from 'node:child_process'
import { resolve } from 'node:path'

// The project's npm scripts as an operator runs them (`npm run admin`, `npm run secrets:rotate`).

export interface CommandResult {
  exitCode: number
  stdout: string
  stderr: string
}

const root = resolve(__dirname, '../..')

/**
 * `npm run <script> -- …args` from the project's root, with only the given environment beside
 * PATH and HOME (the test's own variables must not leak in).
 */
export function runNpmScript(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<CommandResult> {
  return new Promise((done) => {
    execFile(
      'npm',
      ['run', '--silent', script, '--', ...args],
      {
        cwd: root,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
        timeout: 30_000,
      },
      (error, stdout, stderr) => {
        const exitCode = error ? (typeof error.code === 'number' ? error.code : -1) : 0
        done({ exitCode, stdout: stdout.trim(), stderr: stderr.trim() })
      },
    )
  })
}
