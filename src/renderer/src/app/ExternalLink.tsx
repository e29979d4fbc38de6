import type { ReactNode } from 'react'
import { Anchor, type AnchorProps } from '@mantine/core'
import { failureReason, useBridge } from '@renderer/lib/bridge'
import { showToast } from '@renderer/lib/toast'

interface ExternalLinkProps extends Pick<AnchorProps, 'size'> {
  /** An http(s) address: main opens nothing else. */
  href: string
  children: ReactNode
}

/**
 * A link to a page outside the console (a carrier's tracking page), opened in the OS's browser by
 * the main process (docs/product-rules.md "The desktop app"): followed in place it would leave the
 * console, and in browser mode take its page with it. The address stays on the link, for hovering.
 */
export function ExternalLink({ href, children, size }: ExternalLinkProps) {
  const bridge = useBridge()
  const open = async () => {
    try {
      await bridge.invoke('external/open', { url: href })
    } catch (error) {
      showToast({ tone: 'error', title: 'Failed to open link', message: failureReason(error) })
    }
  }
  return (
    <Anchor
      href={href}
      size={size}
      onClick={(event) => {
        event.preventDefault()
        void open()
      }}
    >
      {children}
    </Anchor>
  )
}
