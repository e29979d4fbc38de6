import type { SettingsView, Theme } from '@shared/ipc'
import { DEFAULT_THEME, THEMES } from '@shared/theme'
import type { KeyValueStore, Logger } from '../ports'
import { isSafeApiUrl, type BuildEnvironment, type FirebaseWebConfig } from './build-environment'

// What the build ships with, overridden by what is stored in the settings file (written by whoever
// deploys the app, never by the renderer: it may only change the theme). The backend and the
// Firebase project are read once at launch: nothing in the app writes them, and the session service
// is built from the project.

const KEYS = {
  apiUrl: 'settings.apiUrl',
  theme: 'settings.theme',
  firebase: 'settings.firebase',
} as const

export interface SettingsService {
  view(): SettingsView
  setTheme(theme: Theme): SettingsView
  apiUrl(): string
  /** The Firebase project to sign in with at this launch. */
  firebase(): FirebaseWebConfig
  /** The Auth emulator of the build's project; none once a project of its own is stored. */
  authEmulatorUrl(): string | null
}

export function createSettingsService(options: {
  store: KeyValueStore
  defaults: BuildEnvironment
  sessionPersisted: () => boolean
  log: Logger
}): SettingsService {
  const { store, defaults } = options
  const stored = <T>(key: string, isValid: (value: unknown) => value is T): T | undefined => {
    const value = store.get(key)
    return isValid(value) ? value : undefined
  }
  const storedFirebase = stored(KEYS.firebase, isFirebaseConfig)
  const launchFirebase = storedFirebase ?? defaults.firebase
  const storedApiUrl = stored(KEYS.apiUrl, isString)
  // The admin's ID token goes with every call: never in clear over a network.
  const unsafe = storedApiUrl !== undefined && !isSafeApiUrl(storedApiUrl)
  if (unsafe) {
    options.log.warn(
      `The settings file's backend ${storedApiUrl} is ignored: it must be https (plain http only to this computer).`,
    )
  }
  const launchApiUrl = (!unsafe && storedApiUrl) || defaults.apiUrl

  const service: SettingsService = {
    apiUrl: () => launchApiUrl,
    firebase: () => launchFirebase,
    authEmulatorUrl: () => (storedFirebase ? null : defaults.authEmulatorUrl),
    view: () => ({
      apiUrl: launchApiUrl,
      theme: stored(KEYS.theme, isTheme) ?? DEFAULT_THEME,
      firebaseProjectId: launchFirebase.projectId,
      sessionPersisted: options.sessionPersisted(),
    }),
    setTheme(theme) {
      store.set(KEYS.theme, theme)
      return service.view()
    },
  }
  return service
}

const isString = (value: unknown): value is string => typeof value === 'string' && value !== ''
const isTheme = (value: unknown): value is Theme => THEMES.some((theme) => theme === value)
const isFirebaseConfig = (value: unknown): value is FirebaseWebConfig =>
  typeof value === 'object' &&
  value !== null &&
  ['apiKey', 'authDomain', 'projectId'].every(
    (key) => typeof (value as Record<string, unknown>)[key] === 'string',
  )
