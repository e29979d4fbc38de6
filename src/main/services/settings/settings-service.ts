import type { SettingsView, Theme } from '@shared/ipc'
import type { KeyValueStore } from '../ports'
import type { BuildEnvironment, FirebaseWebConfig } from './build-environment'

// What the build ships with, overridden by what the administrator stored. The Firebase project
// is read once at launch (the session service is built from it), so a change applies next launch.

const KEYS = {
  apiUrl: 'settings.apiUrl',
  theme: 'settings.theme',
  firebase: 'settings.firebase',
} as const

export const DEFAULT_THEME: Theme = 'dark'

export interface SettingsService {
  view(): SettingsView
  update(patch: { apiUrl?: string; theme?: Theme; firebase?: FirebaseWebConfig }): SettingsView
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
}): SettingsService {
  const { store, defaults } = options
  const stored = <T>(key: string, isValid: (value: unknown) => value is T): T | undefined => {
    const value = store.get(key)
    return isValid(value) ? value : undefined
  }
  const storedFirebase = stored(KEYS.firebase, isFirebaseConfig)
  const launchFirebase = storedFirebase ?? defaults.firebase

  const service: SettingsService = {
    apiUrl: () => stored(KEYS.apiUrl, isString) ?? defaults.apiUrl,
    firebase: () => launchFirebase,
    authEmulatorUrl: () => (storedFirebase ? null : defaults.authEmulatorUrl),
    view: () => ({
      apiUrl: service.apiUrl(),
      theme: stored(KEYS.theme, isTheme) ?? DEFAULT_THEME,
      firebaseProjectId: (stored(KEYS.firebase, isFirebaseConfig) ?? defaults.firebase).projectId,
      sessionPersisted: options.sessionPersisted(),
    }),
    update(patch) {
      if (patch.apiUrl !== undefined) store.set(KEYS.apiUrl, patch.apiUrl.replace(/\/+$/, ''))
      if (patch.theme !== undefined) store.set(KEYS.theme, patch.theme)
      if (patch.firebase !== undefined) store.set(KEYS.firebase, patch.firebase)
      return service.view()
    },
  }
  return service
}

const isString = (value: unknown): value is string => typeof value === 'string' && value !== ''
const isTheme = (value: unknown): value is Theme =>
  value === 'light' || value === 'dark' || value === 'system'
const isFirebaseConfig = (value: unknown): value is FirebaseWebConfig =>
  typeof value === 'object' &&
  value !== null &&
  ['apiKey', 'authDomain', 'projectId'].every(
    (key) => typeof (value as Record<string, unknown>)[key] === 'string',
  )
