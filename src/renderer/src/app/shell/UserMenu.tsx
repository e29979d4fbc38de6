import { Button, Menu } from '@mantine/core'
import { IconChevronDown, IconLogout } from '@tabler/icons-react'
import { errorMessage, useBridge } from '@renderer/lib/bridge'
import { showToast } from '@renderer/lib/toast'
import { useSession } from '../session'

/** The signed-in email, opening a menu whose one action is Logout. */
export function UserMenu() {
  const bridge = useBridge()
  const email = useSession((state) => state.session.email)
  const setSession = useSession((state) => state.setSession)

  const logout = async () => {
    try {
      // Signed out, the guard of /main sends the visitor to /signin.
      setSession(await bridge.invoke('session/signOut'))
    } catch (error) {
      showToast({
        tone: 'error',
        title: 'Error',
        message: `Failed to sign out: ${errorMessage(error)}`,
      })
      return
    }
    showToast({ title: 'Signed out', message: 'You have successfully signed out' })
  }

  return (
    <Menu position="bottom-end" width={200}>
      <Menu.Target>
        <Button variant="subtle" color="gray" rightSection={<IconChevronDown size={14} />}>
          {email}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconLogout size={16} />} onClick={() => void logout()}>
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  )
}
