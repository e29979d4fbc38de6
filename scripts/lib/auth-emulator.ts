import { spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { stopChild } from './children'
import { freePort, waitForHttp } from './ports'

// The real Firebase Auth emulator from firebase-tools, started with its own ports so that it never
// collides with another emulator on a shared machine.

export const DEMO_PROJECT_ID = 'demo-tandem'

/** The local stack's administrator (docs/product-rules.md "The desktop app"). */
export const DEMO_ADMIN = { email: 'admin@tandem.test', password: 'tandem-admin', admin: true }

export interface AuthEmulator {
  url: string
  projectId: string
  /** The emulator's process, to stop it by hand when it was started detached. */
  pid: number | undefined
  stop(): Promise<void>
}

export interface StartOptions {
  port: number
  /** Where firebase.json and the emulator's debug log go. */
  workDir: string
  onOutput?: (line: string) => void
  /** Leaves the emulator running after this process ends (stop() still stops it); its output is dropped. */
  detached?: boolean
}

export async function startAuthEmulator(options: StartOptions): Promise<AuthEmulator> {
  mkdirSync(options.workDir, { recursive: true })
  const [hubPort, loggingPort] = [await freePort(), await freePort()]
  const configPath = join(options.workDir, 'firebase.json')
  writeFileSync(
    configPath,
    JSON.stringify({
      emulators: {
        auth: { host: '127.0.0.1', port: options.port },
        hub: { host: '127.0.0.1', port: hubPort },
        logging: { host: '127.0.0.1', port: loggingPort },
        ui: { enabled: false },
      },
    }),
  )
  const firebaseCli = createRequire(import.meta.url).resolve('firebase-tools/lib/bin/firebase.js')
  const child = spawn(
    process.execPath,
    [
      firebaseCli,
      'emulators:start',
      '--only',
      'auth',
      '--project',
      DEMO_PROJECT_ID,
      '--config',
      configPath,
    ],
    {
      cwd: options.workDir,
      stdio: options.detached ? 'ignore' : ['ignore', 'pipe', 'pipe'],
      detached: options.detached,
      env: { ...process.env, CI: 'true' },
    },
  )
  if (options.detached) child.unref()
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding('utf8')
    stream?.on('data', (chunk: string) => {
      for (const line of chunk.split('\n')) if (line.trim()) options.onOutput?.(line)
    })
  }
  const url = `http://127.0.0.1:${options.port}`
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) =>
      reject(new Error(`Firebase Auth emulator exited with code ${code}`)),
    ),
  )
  exited.catch(() => {})
  await Promise.race([waitForHttp(url, 60_000), exited])
  return { url, projectId: DEMO_PROJECT_ID, pid: child.pid, stop: () => stopChild(child) }
}

export interface EmulatorUser {
  email: string
  password: string
  /** Sets the custom claim `admin: true`. */
  admin?: boolean
  /** Marks the email as verified (or not); left as it is when not given. */
  emailVerified?: boolean
}

/** Creates a user in the emulator, or sets the claims of the one that exists. */
export async function upsertEmulatorUser(
  emulatorUrl: string,
  projectId: string,
  user: EmulatorUser,
): Promise<{ uid: string }> {
  const api = `${emulatorUrl}/identitytoolkit.googleapis.com/v1/projects/${projectId}`
  const asOwner = { 'content-type': 'application/json', authorization: 'Bearer owner' }
  const lookUp = async () => {
    const found = await emulatorJson(`${api}/accounts:lookup`, asOwner, { email: [user.email] })
    return (found.users as { localId: string }[] | undefined)?.[0]?.localId
  }
  let uid = await lookUp()
  let madeHere = false
  if (uid === undefined) {
    const made = await fetch(`${api}/accounts`, {
      method: 'POST',
      headers: asOwner,
      body: JSON.stringify({ email: user.email, password: user.password }),
    })
    const answer = (await made.json()) as { localId?: string; error?: { message?: string } }
    madeHere = answer.localId !== undefined
    // Made meanwhile by another test file (they run at once): that one is the user.
    uid = answer.error?.message === 'EMAIL_EXISTS' ? await lookUp() : answer.localId
    if (!uid) {
      throw new Error(`Auth emulator refused to create ${user.email}: ${JSON.stringify(answer)}`)
    }
  }
  // The password only for a user made here: setting it again would revoke the tokens it holds.
  await emulatorJson(`${api}/accounts:update`, asOwner, {
    localId: uid,
    ...(madeHere ? { password: user.password } : {}),
    customAttributes: JSON.stringify(user.admin ? { admin: true } : {}),
    ...(user.emailVerified === undefined ? {} : { emailVerified: user.emailVerified }),
  })
  return { uid }
}

/** Signs a user in through the emulator's REST API and answers the ID token. */
export async function emulatorIdToken(
  emulatorUrl: string,
  email: string,
  password: string,
): Promise<string> {
  const body = await emulatorJson(
    `${emulatorUrl}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-tandem-key`,
    { 'content-type': 'application/json' },
    { email, password, returnSecureToken: true },
  )
  if (typeof body.idToken !== 'string') throw new Error(`The emulator did not sign in ${email}`)
  return body.idToken
}

async function emulatorJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<Record<string, unknown>> {
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) })
  const json = (await response.json()) as Record<string, unknown>
  if (!response.ok) throw new Error(`Auth emulator refused ${url}: ${JSON.stringify(json)}`)
  return json
}
