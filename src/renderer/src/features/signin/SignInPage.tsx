import { useState, type FormEvent } from 'react'
import { Button, Card, Center, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core'
import { Navigate, useLocation } from 'react-router'
import { PRODUCT_NAME } from '@shared/product'
import { returnPathAfterSignIn } from '@renderer/app/RequireSignedIn'
import { useSession } from '@renderer/app/session'
import { useBridge } from '@renderer/lib/bridge'
import { showToast } from '@renderer/lib/toast'
import classes from './SignInPage.module.css'

/** /signin: email and password; once signed in, back to where the visitor was headed. */
export function SignInPage() {
  const bridge = useBridge()
  const location = useLocation()
  const signedIn = useSession((state) => state.session.signedIn)
  const setSession = useSession((state) => state.setSession)
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [pending, setPending] = useState(false)
  // Shown once Signin was pressed with a field empty, until that field is filled in.
  const [triedEmpty, setTriedEmpty] = useState(false)

  if (signedIn) return <Navigate to={returnPathAfterSignIn(location.state)} replace />

  const signIn = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    // An empty field is said under it: the identity provider is not asked about it.
    if (!email.trim() || !password) {
      setTriedEmpty(true)
      return
    }
    setPending(true)
    try {
      const session = await bridge.invoke('session/signIn', { email, password })
      if (!session.signedIn) throw new Error('Not signed in')
      showToast({ title: 'Signed in', message: `Welcome back, ${session.email ?? email}` })
      // Signed in, this page redirects itself.
      setSession(session)
    } catch {
      showToast({ tone: 'error', title: 'Error', message: 'Please check your credentials.' })
    } finally {
      setPending(false)
    }
  }

  return (
    <Center mih="100vh" p="md">
      <Card withBorder shadow="sm" padding="xl" w="100%" maw={400}>
        <form onSubmit={(event) => void signIn(event)}>
          <Stack>
            <div>
              <Title order={1} size="h3">
                {`${PRODUCT_NAME} Signin`}
              </Title>
              <Text c="dimmed" size="sm" mt={4}>
                Signin to your account with email and password.
              </Text>
            </div>
            <TextInput
              type="email"
              label="Email"
              autoComplete="username"
              value={email}
              error={triedEmpty && !email.trim() ? 'Email is required' : undefined}
              onChange={(event) => setEmail(event.currentTarget.value)}
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              value={password}
              error={triedEmpty && !password ? 'Password is required' : undefined}
              onChange={(event) => setPassword(event.currentTarget.value)}
            />
            <Button
              type="submit"
              fullWidth
              disabled={pending}
              aria-busy={pending}
              className={pending ? classes.pulsing : undefined}
            >
              Signin
            </Button>
          </Stack>
        </form>
      </Card>
    </Center>
  )
}
