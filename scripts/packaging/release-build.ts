import { spawnSync } from 'node:child_process'
import {
  ReleaseSettingsError,
  readReleaseEnvironment,
} from '../../src/main/services/settings/build-environment'

// The build an installer is made from: refused, naming every setting at fault, before anything is
// built; then electron-vite with TANDEM_RELEASE_BUILD, which makes its config check them again.

type Env = Record<string, string | undefined>

/** Exits the process with the problems when the settings cannot make an installable build. */
export function releaseBuild(env: Env, projectDir: string): void {
  try {
    readReleaseEnvironment(env)
  } catch (error) {
    if (!(error instanceof ReleaseSettingsError)) throw error
    console.error(error.message)
    console.error(
      'Set them in the environment of `npm run package` (docs/operations.md: Packaging).',
    )
    process.exit(1)
  }
  run('npx', ['electron-vite', 'build'], projectDir, { ...env, TANDEM_RELEASE_BUILD: '1' })
}

/** Runs a command in the foreground; its failure ends this process with its exit code. */
export function run(command: string, args: string[], cwd: string, env: Env = process.env): void {
  const result = spawnSync(command, args, { cwd, env, stdio: 'inherit' })
  if (result.status !== 0) process.exit(result.status ?? 1)
}
