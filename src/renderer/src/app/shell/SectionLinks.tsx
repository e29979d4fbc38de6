import { NavLink } from '@mantine/core'
import { Link, matchPath, useLocation } from 'react-router'
import { SECTIONS } from './sections'

/** The sections of /main; the one being shown is highlighted. */
export function SectionLinks() {
  const { pathname } = useLocation()
  return SECTIONS.map(({ path, label, icon: SectionIcon, badge: SectionBadge }) => {
    // A store's own page (/main/stores/{store}) still belongs to Stores.
    const active = matchPath({ path: `/main/${path}`, end: false }, pathname) !== null
    return (
      <NavLink
        key={path}
        component={Link}
        to={`/main/${path}`}
        label={label}
        leftSection={<SectionIcon size={18} stroke={1.75} />}
        rightSection={SectionBadge && <SectionBadge />}
        active={active}
        aria-current={active ? 'page' : undefined}
      />
    )
  })
}
