import { Suspense, useEffect } from 'react'
import { Anchor, AppShell, Burger, Center, Group, Loader } from '@mantine/core'
import { useDisclosure, useHotkeys } from '@mantine/hooks'
import { Link, Outlet, useLocation } from 'react-router'
import { CONSOLE_NAME } from '@shared/product'
import { ActivityButton } from '@renderer/features/activity/ActivityDrawer'
import { SectionLinks } from './SectionLinks'
import { ThemeSwitch } from './ThemeSwitch'
import { UserMenu } from './UserMenu'

/**
 * /main: the sidebar (220 px, 280 px on large screens) and the header around the current section.
 * Below the sm breakpoint the sidebar folds away behind the burger, and slides back on Escape and
 * on any navigation (a link, Back, a page's own redirect).
 */
export default function ConsoleShell() {
  const [menuOpened, { toggle: toggleMenu, close: closeMenu }] = useDisclosure(false)
  const { key: locationKey } = useLocation()
  useEffect(closeMenu, [locationKey, closeMenu])
  // Also from inside a field: the menu covers the page, so Escape means "away with it" there too.
  useHotkeys([['Escape', closeMenu]], [])

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: { sm: 220, lg: 280 }, breakpoint: 'sm', collapsed: { mobile: !menuOpened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" gap="sm" wrap="nowrap">
          <Burger
            opened={menuOpened}
            onClick={toggleMenu}
            hiddenFrom="sm"
            size="sm"
            aria-label={menuOpened ? 'Close menu' : 'Open menu'}
          />
          <Group ml="auto" gap="sm" wrap="nowrap">
            <ActivityButton />
            <ThemeSwitch />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="sm" aria-label="Sections">
        <Anchor
          component={Link}
          to="/"
          fw={700}
          fz="lg"
          c="var(--mantine-color-text)"
          underline="never"
          px="sm"
          pb="sm"
        >
          {CONSOLE_NAME}
        </Anchor>
        <SectionLinks />
      </AppShell.Navbar>

      <AppShell.Main>
        {/* Feature pages are separate chunks, loaded on first visit. */}
        <Suspense
          fallback={
            <Center py="xl">
              <Loader size="sm" aria-label="Loading" />
            </Center>
          }
        >
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  )
}
