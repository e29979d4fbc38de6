import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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

// Starting the Firebase Auth emulator takes 5–8 s on these machines, more than one server test file
// itself. Outside CI the first run leaves it running and records it here, and later runs of this
// worktree use it again (every test makes users of its own, so nothing carries over between runs).
// `kill <pid>` with the file's pid stops it. CI (CI=true, .ci/run sets it) starts and stops its own.
const KEPT_FILE = join(import.meta.dirname, '../../.tandem/test-auth-emulator.json')

interface KeptEmulator {
  url: string
  pid: number | undefined
}

/** The emulator an earlier run left, if it still answers as the Auth emulator of our project. */
async function keptEmulator(): Promise<KeptEmulator | undefined> {
  let kept: KeptEmulator
  try {
    kept = JSON.parse(readFileSync(KEPT_FILE, 'utf8')) as KeptEmulator
  } catch {
    return undefined
  }
  try {
    const config = await fetch(`${kept.url}/emulator/v1/projects/${DEMO_PROJECT_ID}/config`, {
      signal: AbortSignal.timeout(1000),
    })
    return config.ok ? kept : undefined
  } catch {
    return undefined
  }
}

/** Provides one real Firebase Auth emulator for the whole run (or TANDEM_TEST_AUTH_EMULATOR_URL's). */
export default async function setup(project: TestProject) {
  project.provide('authProjectId', DEMO_PROJECT_ID)
  const given = process.env.TANDEM_TEST_AUTH_EMULATOR_URL
  if (given) {
    project.provide('authEmulatorUrl', given)
    return
  }
  if (!process.env.CI) {
    const kept = (await keptEmulator()) ?? (await keepEmulator())
    project.provide('authEmulatorUrl', kept.url)
    return
  }
  const workDir = mkdtempSync(join(tmpdir(), 'tandem-auth-emulator-'))
  const emulator = await startAuthEmulator({ port: await freePort(), workDir })
  project.provide('authEmulatorUrl', emulator.url)
  return async () => {
    await emulator.stop()
    rmSync(workDir, { recursive: true, force: true })
  }
}

async function keepEmulator(): Promise<KeptEmulator> {
  const workDir = mkdtempSync(join(tmpdir(), 'tandem-auth-emulator-'))
  const emulator = await startAuthEmulator({ port: await freePort(), workDir, detached: true })
  const kept = { url: emulator.url, pid: emulator.pid }
  mkdirSync(join(KEPT_FILE, '..'), { recursive: true })
  writeFileSync(KEPT_FILE, JSON.stringify(kept))
  return kept
}
