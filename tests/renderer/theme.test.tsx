import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { Theme } from '@shared/ipc'
import { SIGNED_IN, fakeBridge, settings } from './support/fake-bridge'
import { renderApp } from './support/render-app'

const colorScheme = () => document.documentElement.getAttribute('data-mantine-color-scheme')

function consoleWithStoredTheme(theme: Theme) {
  const fake = fakeBridge({
    'session/status': () => SIGNED_IN,
    'settings/get': () => settings({ theme }),
    'settings/update': (change) => settings(change),
  })
  renderApp(fake.bridge, '/main/stores')
  return fake
}

describe('Theme', () => {
  it('is dark by default', async () => {
    consoleWithStoredTheme('dark')

    expect(await screen.findByRole('radiogroup', { name: 'Theme' })).toBeInTheDocument()
    expect(screen.getByRole('radio', { name: 'Dark' })).toBeChecked()
    expect(colorScheme()).toBe('dark')
  })

  it('starts with the stored theme', async () => {
    consoleWithStoredTheme('light')

    expect(await screen.findByRole('radio', { name: 'Light' })).toBeChecked()
    expect(colorScheme()).toBe('light')
  })

  it('renders nothing until the stored theme is known', async () => {
    const fake = fakeBridge({ 'settings/get': () => new Promise(() => {}) })
    const { container } = renderApp(fake.bridge, '/signin')

    await waitFor(() => expect(fake.callsTo('settings/get')).toHaveLength(1))
    expect(container).toBeEmptyDOMElement()
  })

  it('switches and saves light, system and dark', async () => {
    const fake = consoleWithStoredTheme('dark')
    const user = userEvent.setup()

    await user.click(await screen.findByRole('radio', { name: 'Light' }))
    expect(colorScheme()).toBe('light')

    // "System" follows the OS, which the jsdom stub reports as not dark.
    await user.click(screen.getByRole('radio', { name: 'System' }))
    expect(colorScheme()).toBe('light')

    await user.click(screen.getByRole('radio', { name: 'Dark' }))
    expect(colorScheme()).toBe('dark')

    expect(fake.callsTo('settings/update').map((call) => call.args)).toEqual([
      { theme: 'light' },
      { theme: 'system' },
      { theme: 'dark' },
    ])
  })

  it('says so when the theme cannot be saved', async () => {
    const fake = fakeBridge({
      'session/status': () => SIGNED_IN,
      'settings/update': () => Promise.reject(new Error('The settings file is read-only.')),
    })
    renderApp(fake.bridge, '/main/stores')

    await userEvent.click(await screen.findByRole('radio', { name: 'Light' }))

    expect(
      await screen.findByText('Failed to save the theme: The settings file is read-only.'),
    ).toBeInTheDocument()
  })
})
