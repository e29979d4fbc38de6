import { describe, expect, it } from 'vitest'
import {
  LOCAL_DEFAULTS,
  readBuildEnvironment,
} from '../../src/main/services/settings/build-environment'
import { createSettingsService } from '../../src/main/services/settings/settings-service'
import { memoryStore } from './fakes'

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

describe('settings service', () => {
  const create = (store = memoryStore(), sessionPersisted = true) =>
    createSettingsService({
      store,
      defaults: LOCAL_DEFAULTS,
      sessionPersisted: () => sessionPersisted,
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

  it('says when the session cannot be kept across restarts', () => {
    expect(create(memoryStore(), false).view().sessionPersisted).toBe(false)
  })
})
