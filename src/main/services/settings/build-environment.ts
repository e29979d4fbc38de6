// What a build ships with: read from the environment at build time (electron.vite.config.ts) and
// at run time (browser host, `npm start`), then overridable from the stored settings.

export interface FirebaseWebConfig {
  apiKey: string
  authDomain: string
  projectId: string
  appId?: string
}

export interface BuildEnvironment {
  apiUrl: string
  firebase: FirebaseWebConfig
  /** Set for local stacks and tests: `http://127.0.0.1:9099`. */
  authEmulatorUrl: string | null
}

/** The local stack's defaults: the demo Firebase project behind the Auth emulator. */
export const LOCAL_DEFAULTS: BuildEnvironment = {
  apiUrl: 'http://127.0.0.1:8787',
  firebase: {
    apiKey: 'demo-tandem-key',
    authDomain: 'demo-tandem.firebaseapp.com',
    projectId: 'demo-tandem',
  },
  authEmulatorUrl: 'http://127.0.0.1:9099',
}

type Env = Record<string, string | undefined>

export function readBuildEnvironment(env: Env, fallback = LOCAL_DEFAULTS): BuildEnvironment {
  const firebase: FirebaseWebConfig = {
    apiKey: env.TANDEM_FIREBASE_API_KEY || fallback.firebase.apiKey,
    authDomain: env.TANDEM_FIREBASE_AUTH_DOMAIN || fallback.firebase.authDomain,
    projectId: env.TANDEM_FIREBASE_PROJECT_ID || fallback.firebase.projectId,
  }
  const appId = env.TANDEM_FIREBASE_APP_ID || fallback.firebase.appId
  if (appId) firebase.appId = appId
  // A real Firebase project (an API key given) never talks to an emulator unless told to.
  const usesRealProject = Boolean(env.TANDEM_FIREBASE_API_KEY)
  return {
    apiUrl: env.TANDEM_API_URL || fallback.apiUrl,
    firebase,
    authEmulatorUrl:
      env.TANDEM_AUTH_EMULATOR_URL || (usesRealProject ? null : fallback.authEmulatorUrl),
  }
}

/**
 * What this launch uses. A packaged app keeps what its build shipped with, whatever its launch
 * environment says, and never signs in through an emulator (whatever its build says): only a
 * development run may be pointed elsewhere.
 */
export function launchEnvironment(
  built: BuildEnvironment,
  launch: { packaged: boolean; env: Env },
): BuildEnvironment {
  if (launch.packaged) return { ...built, authEmulatorUrl: null }
  return readBuildEnvironment(launch.env, built)
}

const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i

/**
 * A backend the admin's ID token may travel to: https, or plain http to this computer only
 * (a local server), never with a user name or password in the URL.
 */
export function isSafeApiUrl(url: string): boolean {
  const parsed = URL.parse(url)
  if (!parsed || parsed.username !== '' || parsed.password !== '') return false
  return (
    parsed.protocol === 'https:' ||
    (parsed.protocol === 'http:' && LOOPBACK_HOSTS.test(parsed.hostname))
  )
}

/** The settings a package was refused for, each naming its variable. */
export class ReleaseSettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(`A package needs its production settings:\n${problems.map((p) => `- ${p}`).join('\n')}`)
    this.name = 'ReleaseSettingsError'
  }
}

/**
 * What an installable build ships with: every setting given, none falling back to the local
 * stack (whose emulator on 127.0.0.1:9099 would receive the admin's password from any process
 * listening there). Throws naming every problem at once.
 */
export function readReleaseEnvironment(env: Env): BuildEnvironment {
  const problems: string[] = []
  const required = (name: string, what: string): string => {
    const value = env[name]?.trim() ?? ''
    if (value === '') problems.push(`${name} is missing: ${what}.`)
    return value
  }
  const apiUrl = required('TANDEM_API_URL', 'the Tandem server, e.g. https://api.tandem.example')
  if (apiUrl !== '' && !isSafeApiUrl(apiUrl)) {
    problems.push(
      `TANDEM_API_URL must be an https URL (plain http only to 127.0.0.1 or localhost), without a user name or password: got ${apiUrl}.`,
    )
  }
  const apiKey = required('TANDEM_FIREBASE_API_KEY', 'the web API key of the Firebase project')
  const authDomain = required(
    'TANDEM_FIREBASE_AUTH_DOMAIN',
    'the Firebase auth domain, e.g. tandem-prod.firebaseapp.com',
  )
  if (authDomain !== '' && !/^[a-z0-9.-]+$/i.test(authDomain)) {
    problems.push(
      `TANDEM_FIREBASE_AUTH_DOMAIN must be a host name such as tandem-prod.firebaseapp.com: got ${authDomain}.`,
    )
  }
  const projectId = required('TANDEM_FIREBASE_PROJECT_ID', 'the Firebase project ID')
  if (projectId.startsWith('demo-')) {
    problems.push(
      `TANDEM_FIREBASE_PROJECT_ID is ${projectId}: a demo- project exists only in the Auth emulator.`,
    )
  }
  if (env.TANDEM_AUTH_EMULATOR_URL) {
    problems.push(
      'TANDEM_AUTH_EMULATOR_URL is set: an installable build never signs in through the Auth emulator.',
    )
  }
  if (problems.length > 0) throw new ReleaseSettingsError(problems)
  const appId = env.TANDEM_FIREBASE_APP_ID?.trim()
  return {
    apiUrl,
    firebase: { apiKey, authDomain, projectId, ...(appId ? { appId } : {}) },
    authEmulatorUrl: null,
  }
}
