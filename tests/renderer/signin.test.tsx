import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { BridgeError, HostKeyRefused } from '@renderer/lib/bridge'
import { SIGNED_IN, deferred, fakeBridge } from './support/fake-bridge'
import { renderApp } from './support/render-app'
import type { SessionView } from '@shared/ipc'

async function fillIn(email = 'admin@tandem.test', password = 'tandem-admin') {
  const user = userEvent.setup()
  await user.type(await screen.findByLabelText('Email'), email)
  await user.type(screen.getByLabelText('Password'), password)
  return user
}

describe('Sign-in', () => {
  it('shows the sign-in card', async () => {
    renderApp(fakeBridge().bridge, '/signin')

    expect(await screen.findByRole('heading', { name: 'Tandem Signin' })).toBeInTheDocument()
    expect(screen.getByText('Signin to your account with email and password.')).toBeInTheDocument()
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email')
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password')
    expect(screen.getByRole('button', { name: 'Signin' })).toBeEnabled()
  })

  it('pulses and disables the button while the request is in flight', async () => {
    const answer = deferred<SessionView>()
    const fake = fakeBridge({ 'session/signIn': () => answer.promise })
    renderApp(fake.bridge, '/signin')

    const user = await fillIn()
    await user.click(screen.getByRole('button', { name: 'Signin' }))

    const button = screen.getByRole('button', { name: 'Signin' })
    expect(button).toBeDisabled()
    expect(button).toHaveAttribute('aria-busy', 'true')
    expect(button.className).toMatch(/pulsing/)
    expect(fake.callsTo('session/signIn')).toEqual([
      { channel: 'session/signIn', args: { email: 'admin@tandem.test', password: 'tandem-admin' } },
    ])

    answer.reject(new BridgeError({ message: 'Wrong password' }))
    await waitFor(() => expect(screen.getByRole('button', { name: 'Signin' })).toBeEnabled())
    expect(screen.getByRole('button', { name: 'Signin' })).toHaveAttribute('aria-busy', 'false')
  })

  it('says "Error" / "Please check your credentials." when sign-in fails, and stays', async () => {
    const fake = fakeBridge({
      'session/signIn': () => {
        throw new BridgeError({ message: 'Invalid email or password.' })
      },
    })
    const app = renderApp(fake.bridge, '/signin')

    const user = await fillIn('admin@tandem.test', 'wrong')
    await user.click(screen.getByRole('button', { name: 'Signin' }))

    expect(await screen.findByText('Please check your credentials.')).toBeInTheDocument()
    expect(screen.getByText('Error')).toBeInTheDocument()
    expect(app.location().pathname).toBe('/signin')
  })

  it('says under each empty field that it is needed, and asks nothing', async () => {
    const fake = fakeBridge({ 'session/signIn': () => SIGNED_IN })
    renderApp(fake.bridge, '/signin')
    const user = userEvent.setup()

    await user.click(await screen.findByRole('button', { name: 'Signin' }))

    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Email is required')
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Password is required')
    expect(screen.queryByText('Please check your credentials.')).not.toBeInTheDocument()
    expect(fake.callsTo('session/signIn')).toEqual([])

    await user.type(screen.getByLabelText('Email'), 'admin@tandem.test')
    await user.click(screen.getByRole('button', { name: 'Signin' }))
    expect(screen.queryByText('Email is required')).not.toBeInTheDocument()
    expect(screen.getByText('Password is required')).toBeInTheDocument()
    expect(fake.callsTo('session/signIn')).toEqual([])
  })

  it('submits with Enter, toasts and goes to /main/stores', async () => {
    const fake = fakeBridge({ 'session/signIn': () => SIGNED_IN })
    const app = renderApp(fake.bridge, '/signin')

    const user = await fillIn()
    await user.keyboard('{Enter}')

    expect(await screen.findByRole('heading', { name: 'Stores' })).toBeInTheDocument()
    expect(app.location().pathname).toBe('/main/stores')
    expect(screen.getByText('Signed in')).toBeInTheDocument()
    expect(screen.getByText('Welcome back, admin@tandem.test')).toBeInTheDocument()
  })

  it('sends signed-out visitors of /main to /signin and back to that path afterwards', async () => {
    const fake = fakeBridge({ 'session/signIn': () => SIGNED_IN })
    const app = renderApp(fake.bridge, '/main/configs')

    expect(await screen.findByRole('heading', { name: 'Tandem Signin' })).toBeInTheDocument()
    expect(app.location().pathname).toBe('/signin')

    const user = await fillIn()
    await user.click(screen.getByRole('button', { name: 'Signin' }))

    expect(await screen.findByRole('heading', { name: 'Configs' })).toBeInTheDocument()
    expect(app.location().pathname).toBe('/main/configs')
  })

  it('sends a signed-in visitor of /signin to /main/stores', async () => {
    const app = renderApp(fakeBridge({ 'session/status': () => SIGNED_IN }).bridge, '/signin')

    expect(await screen.findByRole('heading', { name: 'Stores' })).toBeInTheDocument()
    expect(app.location().pathname).toBe('/main/stores')
  })

  it("in browser mode without this launch's key, says which address to open instead of a sign-in", async () => {
    const fake = fakeBridge({
      'session/status': () => {
        throw new HostKeyRefused()
      },
    })
    renderApp(fake.bridge, '/signin')

    expect(
      await screen.findByRole('heading', { name: 'Open Tandem Admin with its key' }),
    ).toBeInTheDocument()
    expect(
      screen.getByText(/This address has no key, or the key of an earlier launch/),
    ).toBeVisible()
    expect(screen.getByText('Tandem Admin is running at')).toBeVisible()
    expect(screen.queryByRole('button', { name: 'Signin' })).not.toBeInTheDocument()
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument()
  })
})
