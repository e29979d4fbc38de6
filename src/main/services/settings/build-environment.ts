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
