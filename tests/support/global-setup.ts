import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type {} from 'vitest'
import type { TestProject } from 'vitest/node'
import { DEMO_PROJECT_ID, startAuthEmulator } from '../../scripts/lib/auth-emulator'
import { freePort } from '../../scripts/lib/ports'

declare module 'vitest' {
  export interface ProvidedContext {
    authEmulatorUrl: string
    authProjectId: string
  }
}

/** Starts one real Firebase Auth emulator for the whole run (or uses TANDEM_TEST_AUTH_EMULATOR_URL). */
export default async function setup(project: TestProject) {
  const given = process.env.TANDEM_TEST_AUTH_EMULATOR_URL
  if (given) {
    project.provide('authEmulatorUrl', given)
    project.provide('authProjectId', DEMO_PROJECT_ID)
    return
  }
  const workDir = mkdtempSync(join(tmpdir(), 'tandem-auth-emulator-'))
  const emulator = await startAuthEmulator({ port: await freePort(), workDir })
  project.provide('authEmulatorUrl', emulator.url)
  project.provide('authProjectId', emulator.projectId)
  return async () => {
    await emulator.stop()
    rmSync(workDir, { recursive: true, force: true })
  }
}
