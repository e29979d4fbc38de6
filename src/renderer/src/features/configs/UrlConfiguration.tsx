import { Card, Group, Stack, Text, Title, UnstyledButton, VisuallyHidden } from '@mantine/core'
import { IconCopy } from '@tabler/icons-react'
import type { AppUrls, ShopType } from '@shared/contract'
import { errorMessage, useBridge } from '@renderer/lib/bridge'
import { showToast, type Toast } from '@renderer/lib/toast'
import classes from './UrlConfiguration.module.css'

const APP_URL_COPIED: Toast = {
  title: 'App URL Copied',
  message: 'The app URL has been copied to your clipboard.',
}
const AUTH_URL_COPIED: Toast = {
  title: 'Auth URL Copied',
  message: 'The auth URL has been copied to your clipboard.',
}

/** The URLs a Shopify app of the chosen shop type is set up with, each copied with one click. */
export function UrlConfiguration({ shopType, appUrls }: { shopType: ShopType; appUrls: AppUrls }) {
  const bridge = useBridge()
  const brand = shopType === 'BRAND'
  const appUrl = brand ? appUrls.brandAppUrl : appUrls.creatorAppUrl
  const authUrl = brand ? appUrls.brandAppAuthUrl : appUrls.creatorAppAuthUrl

  // docs/product-rules.md "The desktop app": the main process writes to the OS clipboard, so the
  // copy works in browser mode too.
  const copy = async (text: string, copied: Toast) => {
    try {
      await bridge.invoke('clipboard/writeText', { text })
      showToast(copied)
    } catch (error) {
      showToast({ tone: 'error', title: 'Error', message: errorMessage(error) })
    }
  }

  return (
    <Card withBorder padding="lg" maw={640}>
      <Title order={2} size="h4">
        URL Configuration
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {`The ${brand ? 'brand' : 'creator'} app's URLs for its Shopify app setup. Click one to copy it.`}
      </Text>
      <Stack gap="sm">
        <UrlBlock
          label="App URL"
          lines={[appUrl]}
          onCopy={() => void copy(appUrl, APP_URL_COPIED)}
        />
        {/* Shown one per line; copied exactly as the server sent it, commas and all, which is
            what Shopify's "Allowed redirection URL(s)" field takes. */}
        <UrlBlock
          label="Auth URL"
          lines={authUrl.split(',').filter((url) => url !== '')}
          onCopy={() => void copy(authUrl, AUTH_URL_COPIED)}
        />
      </Stack>
    </Card>
  )
}

interface UrlBlockProps {
  label: string
  lines: string[]
  onCopy: () => void
}

/**
 * The block is the button, named by what it shows ("Copy App URL https://…"): a name that left
 * out the URL would not match what a speech-input user sees and says.
 */
function UrlBlock({ label, lines, onCopy }: UrlBlockProps) {
  return (
    <UnstyledButton className={classes.block} onClick={onCopy}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <div>
          <Text size="sm" fw={500}>
            <VisuallyHidden>Copy</VisuallyHidden> {label}
          </Text>
          {/* The lines never move, and the same URL may come twice. */}
          {lines.map((line, index) => (
            <Text key={index} size="sm" ff="monospace" className={classes.url}>
              {line}
            </Text>
          ))}
        </div>
        <IconCopy size={18} stroke={1.75} aria-hidden />
      </Group>
    </UnstyledButton>
  )
}
