import { act, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { SIGNED_IN, SIGNED_OUT, fakeBridge } from './support/fake-bridge'
import { renderApp } from './support/render-app'

const SECTIONS = [
  ['stores', 'Stores'],
  ['products', 'Products'],
  ['orders', 'Orders'],
  ['shipping', 'Shipping'],
  ['configs', 'Configs'],
  ['create-order-transfer', 'Create Order Transfer'],
  // A development build's (vitest.config.mts defines it so): the local stack's controls.
  ['sandbox', 'Sandbox'],
] as const

const signedIn = () => fakeBridge({ 'session/status': () => SIGNED_IN })

const sidebar = () => within(screen.getByRole('navigation', { name: 'Sections' }))

describe('Shell', () => {
  it('links the sections and the brand from the sidebar', async () => {
    renderApp(signedIn().bridge, '/main/stores')
    await screen.findByRole('heading', { name: 'Stores' })

    expect(sidebar().getByRole('link', { name: 'Tandem Admin' })).toHaveAttribute('href', '/')
    for (const [path, label] of SECTIONS) {
      expect(sidebar().getByRole('link', { name: label })).toHaveAttribute('href', `/main/${path}`)
    }
  })

  it.each(SECTIONS)(
    '/main/%s has the heading "%s" and highlights its link',
    async (path, label) => {
      renderApp(signedIn().bridge, `/main/${path}`)

      expect(await screen.findByRole('heading', { name: label })).toBeInTheDocument()
      const current = sidebar().getByRole('link', { current: 'page' })
      expect(current).toHaveAccessibleName(label)
      expect(current).toHaveAttribute('data-active', 'true')
      expect(sidebar().getAllByRole('link', { current: 'page' })).toHaveLength(1)
    },
  )

  it('shows only its name on the placeholder page', async () => {
    renderApp(signedIn().bridge, '/main/add-config')
    const heading = await screen.findByRole('heading', { name: 'Add Config' })
    expect(heading.parentElement).toHaveTextContent(/^Add Config$/)
  })

  it('moves between sections from the sidebar', async () => {
    const app = renderApp(signedIn().bridge, '/main/stores')
    await screen.findByRole('heading', { name: 'Stores' })

    await userEvent.click(sidebar().getByRole('link', { name: 'Orders' }))

    expect(await screen.findByRole('heading', { name: 'Orders' })).toBeInTheDocument()
    expect(app.location().pathname).toBe('/main/orders')
    expect(sidebar().getByRole('link', { current: 'page' })).toHaveAccessibleName('Orders')
  })

  it.each(['/', '/main', '/main/nowhere'])('sends %s to /main/stores', async (path) => {
    const app = renderApp(signedIn().bridge, path)

    expect(await screen.findByRole('heading', { name: 'Stores' })).toBeInTheDocument()
    expect(app.location().pathname).toBe('/main/stores')
  })

  it('has a notifications button, which opens the activity, and shows the signed-in email', async () => {
    renderApp(signedIn().bridge, '/main/stores')

    expect(await screen.findByRole('button', { name: 'Activity' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'admin@tandem.test' })).toBeInTheDocument()
  })

  it('logs out from the user menu', async () => {
    const fake = fakeBridge({
      'session/status': () => SIGNED_IN,
      'session/signOut': () => SIGNED_OUT,
    })
    const app = renderApp(fake.bridge, '/main/configs')
    const user = userEvent.setup()

    await user.click(await screen.findByRole('button', { name: 'admin@tandem.test' }))
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Logout'])
    await user.click(screen.getByRole('menuitem', { name: 'Logout' }))

    expect(await screen.findByRole('heading', { name: 'Tandem Signin' })).toBeInTheDocument()
    expect(app.location().pathname).toBe('/signin')
    expect(fake.callsTo('session/signOut')).toHaveLength(1)
    expect(screen.getByText('Signed out')).toBeInTheDocument()
    expect(screen.getByText('You have successfully signed out')).toBeInTheDocument()
  })

  it('comes back to the /main page of the Logout when signing in again', async () => {
    const fake = fakeBridge({
      'session/status': () => SIGNED_IN,
      'session/signOut': () => SIGNED_OUT,
      'session/signIn': () => SIGNED_IN,
    })
    const app = renderApp(fake.bridge, '/main/configs')
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'admin@tandem.test' }))
    await user.click(screen.getByRole('menuitem', { name: 'Logout' }))

    await user.type(await screen.findByLabelText('Email'), 'admin@tandem.test')
    await user.type(screen.getByLabelText('Password'), 'tandem-admin')
    await user.click(screen.getByRole('button', { name: 'Signin' }))

    expect(await screen.findByRole('heading', { name: 'Configs' })).toBeInTheDocument()
    expect(app.location().pathname).toBe('/main/configs')
  })

  it('goes to /signin when the main process ends the session, and back after signing in', async () => {
    const fake = fakeBridge({
      'session/status': () => SIGNED_IN,
      'session/signIn': () => SIGNED_IN,
    })
    const app = renderApp(fake.bridge, '/main/orders')
    await screen.findByRole('heading', { name: 'Orders' })

    act(() => fake.emit('session/changed', SIGNED_OUT))

    expect(await screen.findByRole('heading', { name: 'Tandem Signin' })).toBeInTheDocument()
    expect(app.location().pathname).toBe('/signin')
    const user = userEvent.setup()
    await user.type(screen.getByLabelText('Email'), 'admin@tandem.test')
    await user.type(screen.getByLabelText('Password'), 'tandem-admin')
    await user.click(screen.getByRole('button', { name: 'Signin' }))

    expect(await screen.findByRole('heading', { name: 'Orders' })).toBeInTheDocument()
    expect(app.location().pathname).toBe('/main/orders')
  })
})
