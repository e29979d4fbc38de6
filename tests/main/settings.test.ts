import { describe, expect, it } from 'vitest'
import {
  LOCAL_DEFAULTS,
  ReleaseSettingsError,
  isSafeApiUrl,
  launchEnvironment,
  readBuildEnvironment,
  readReleaseEnvironment,
} from '../../src/main/services/settings/build-environment'
import { createSettingsService } from '../../src/main/services/settings/settings-service'
import { memoryStore, recordingLogger } from './fakes'

const RELEASE = {
  TANDEM_API_URL: 'https://api.tandem.example',
  TANDEM_FIREBASE_API_KEY: 'AIza-real',
  TANDEM_FIREBASE_AUTH_DOMAIN: 'tandem-prod.firebaseapp.com',
  TANDEM_FIREBASE_PROJECT_ID: 'tandem-prod',
}

/** The problems a release build is refused for, or [] when it is not. */
function releaseProblems(env: Record<string, string | undefined>): string[] {
  try {
    readReleaseEnvironment(env)
    return []
  } catch (error) {
    if (error instanceof ReleaseSettingsError) return error.problems
    throw error
  }
}

describe('build environment', () => {
  it('falls back to the local stack: demo project behind the emulator', () => {
    expect(readBuildEnvironment({})).toEqual(LOCAL_DEFAULTS)
  })

  it('takes the backend and a real Firebase project from the environment, without an emulator', () => {
    const environment = readBuildEnvironment({
      TANDEM_API_URL: 'https://api.tandem.example',
      TANDEM_FIREBASE_API_KEY: 'AIza-real',
      TANDEM_FIREBASE_AUTH_DOMAIN: 'tandem-prod.firebaseapp.com',
      TANDEM_FIREBASE_PROJECT_ID: 'tandem-prod',
    })
    expect(environment).toEqual({
      apiUrl: 'https://api.tandem.example',
      firebase: {
        apiKey: 'AIza-real',
        authDomain: 'tandem-prod.firebaseapp.com',
        projectId: 'tandem-prod',
      },
      authEmulatorUrl: null,
    })
  })

  it('lets run time override what the build shipped with', () => {
    const built = readBuildEnvironment({ TANDEM_API_URL: 'https://built.example' })
    expect(readBuildEnvironment({ TANDEM_API_URL: 'http://127.0.0.1:9000' }, built).apiUrl).toBe(
      'http://127.0.0.1:9000',
    )
    expect(readBuildEnvironment({}, built).apiUrl).toBe('https://built.example')
  })
})

describe('a launch', () => {
  const built = readReleaseEnvironment(RELEASE)

  it('of a packaged app keeps what the build shipped with, whatever its environment says', () => {
    const env = { TANDEM_API_URL: 'http://127.0.0.1:1', TANDEM_AUTH_EMULATOR_URL: 'http://x:9099' }
    expect(launchEnvironment(built, { packaged: true, env })).toEqual(built)
  })

  it('of a packaged app never signs in through an emulator, even one its build named', () => {
    const launch = launchEnvironment(LOCAL_DEFAULTS, { packaged: true, env: {} })
    expect(launch.authEmulatorUrl).toBeNull()
  })

  it('in development follows its environment', () => {
    const env = { TANDEM_API_URL: 'http://127.0.0.1:9000' }
    expect(launchEnvironment(LOCAL_DEFAULTS, { packaged: false, env }).apiUrl).toBe(
      'http://127.0.0.1:9000',
    )
  })
})

describe('release build settings', () => {
  it('take the production backend and Firebase project, with no emulator', () => {
    expect(readReleaseEnvironment({ ...RELEASE, TANDEM_FIREBASE_APP_ID: '1:2:web:3' })).toEqual({
      apiUrl: 'https://api.tandem.example',
      firebase: {
        apiKey: 'AIza-real',
        authDomain: 'tandem-prod.firebaseapp.com',
        projectId: 'tandem-prod',
        appId: '1:2:web:3',
      },
      authEmulatorUrl: null,
    })
  })

  it('are refused when missing, naming every setting at once, never falling back to the local stack', () => {
    expect(releaseProblems({})).toEqual([
      'TANDEM_API_URL is missing: the Tandem server, e.g. https://api.tandem.example.',
      'TANDEM_FIREBASE_API_KEY is missing: the web API key of the Firebase project.',
      'TANDEM_FIREBASE_AUTH_DOMAIN is missing: the Firebase auth domain, e.g. tandem-prod.firebaseapp.com.',
      'TANDEM_FIREBASE_PROJECT_ID is missing: the Firebase project ID.',
    ])
    expect(releaseProblems({ ...RELEASE, TANDEM_FIREBASE_API_KEY: '  ' })).toEqual([
      'TANDEM_FIREBASE_API_KEY is missing: the web API key of the Firebase project.',
    ])
  })

  it('refuse a backend reached in clear over a network, or with credentials in it', () => {
    for (const url of [
      'http://api.tandem.example',
      'http://192.168.1.20:8787',
      'http://127.0.0.1.evil.test',
      'https://admin:pw@api.tandem.example',
      'ftp://api.tandem.example',
      'api.tandem.example',
    ]) {
      expect(releaseProblems({ ...RELEASE, TANDEM_API_URL: url }), url).toEqual([
        `TANDEM_API_URL must be an https URL (plain http only to 127.0.0.1 or localhost), without a user name or password: got ${url}.`,
      ])
    }
    for (const url of ['http://127.0.0.1:8787', 'http://localhost:8787', 'http://[::1]:8787']) {
      expect(releaseProblems({ ...RELEASE, TANDEM_API_URL: url }), url).toEqual([])
    }
  })

  it('refuse the Auth emulator and demo projects, which exist only on this computer', () => {
    expect(
      releaseProblems({
        ...RELEASE,
        TANDEM_FIREBASE_PROJECT_ID: 'demo-tandem',
        TANDEM_AUTH_EMULATOR_URL: 'http://127.0.0.1:9099',
      }),
    ).toEqual([
      'TANDEM_FIREBASE_PROJECT_ID is demo-tandem: a demo- project exists only in the Auth emulator.',
      'TANDEM_AUTH_EMULATOR_URL is set: an installable build never signs in through the Auth emulator.',
    ])
  })

  it('refuse an auth domain that is not a host name', () => {
    expect(
      releaseProblems({ ...RELEASE, TANDEM_FIREBASE_AUTH_DOMAIN: 'https://x.firebaseapp.com' }),
    ).toEqual([
      'TANDEM_FIREBASE_AUTH_DOMAIN must be a host name such as tandem-prod.firebaseapp.com: got https://x.firebaseapp.com.',
    ])
  })

  it('agree with the backend rule the settings file is held to', () => {
    expect(isSafeApiUrl('https://api.tandem.example/v1')).toBe(true)
    expect(isSafeApiUrl('http://127.0.0.5:80')).toBe(true)
    expect(isSafeApiUrl('http://LOCALHOST')).toBe(true)
    expect(isSafeApiUrl('http://localhost.evil.test')).toBe(false)
    expect(isSafeApiUrl('not a url')).toBe(false)
  })
})

describe('settings service', () => {
  const create = (store = memoryStore(), sessionPersisted = true, log = recordingLogger()) =>
    createSettingsService({
      store,
      defaults: LOCAL_DEFAULTS,
      sessionPersisted: () => sessionPersisted,
      log,
    })

  it('starts dark, on the build defaults', () => {
    expect(create().view()).toEqual({
      apiUrl: 'http://127.0.0.1:8787',
      theme: 'dark',
      firebaseProjectId: 'demo-tandem',
      sessionPersisted: true,
    })
  })

  it('remembers the theme across a restart (a new service over the same store)', () => {
    const store = memoryStore()
    expect(create(store).setTheme('light').theme).toBe('light')
    expect(create(store).view().theme).toBe('light')
  })

  it('takes the backend and a Firebase project of its own from the settings file', () => {
    const project = { apiKey: 'k', authDomain: 'p.firebaseapp.com', projectId: 'tandem-prod' }
    const settings = create(
      memoryStore({
        'settings.apiUrl': 'https://api.tandem.example',
        'settings.firebase': project,
      }),
    )
    expect(settings.apiUrl()).toBe('https://api.tandem.example')
    expect(settings.firebase()).toEqual(project)
    expect(settings.view().firebaseProjectId).toBe('tandem-prod')
    // A project of its own never signs in through the build's emulator.
    expect(settings.authEmulatorUrl()).toBeNull()
  })

  it('ignores stored values of the wrong shape', () => {
    const store = memoryStore({ 'settings.theme': 'purple', 'settings.apiUrl': 42 })
    expect(create(store).view()).toMatchObject({ theme: 'dark', apiUrl: 'http://127.0.0.1:8787' })
  })

  it('ignores a stored backend reached in clear over a network, and says so', () => {
    const log = recordingLogger()
    const store = memoryStore({ 'settings.apiUrl': 'http://10.0.0.5:8787' })
    expect(create(store, true, log).apiUrl()).toBe('http://127.0.0.1:8787')
    expect(log.lines).toEqual([
      "warn The settings file's backend http://10.0.0.5:8787 is ignored: it must be https (plain http only to this computer).",
    ])
  })

  it('says when the session cannot be kept across restarts', () => {
    expect(create(memoryStore(), false).view().sessionPersisted).toBe(false)
  })
})
