import { useEffect, useRef, useState } from 'react'
import { Badge, Button, Group, Stack, Text } from '@mantine/core'
import type { ShopConnection } from '@shared/contract'
import { failureReason, useBridge } from '@renderer/lib/bridge'
import { plural, storeName } from '@renderer/lib/format'
import { showToast, type Toast } from '@renderer/lib/toast'

const LOOK: Record<ShopConnection['state'], { label: string; color: string }> = {
  CONNECTED: { label: 'Connected', color: 'teal' },
  NOT_CONNECTED: { label: 'Not connected', color: 'gray' },
  ERROR: { label: 'Error', color: 'red' },
}

const METHOD: Record<NonNullable<ShopConnection['method']>, string> = {
  CLIENT_CREDENTIALS: 'client credentials',
  AUTHORIZATION_CODE: 'app install',
}

/**
 * How Tandem is connected to the shop (docs/integrations.md "Shopify"): its state, how it was
 * granted, and the reason of a failure; "Test connection" asks the shop itself.
 */
export function ShopConnectionCell({ shop }: { shop: string }) {
  const bridge = useBridge()
  const [connection, setConnection] = useState<ShopConnection | null>(null)
  const [testing, setTesting] = useState(false)
  // Once a test has begun, its answer is newer than the first reading, however late that comes.
  const tested = useRef(false)

  useEffect(() => {
    let current = true
    bridge
      .invoke('adminShopConnection', { shop })
      .then((answer) => current && !tested.current && setConnection(answer))
      // The row still works without it; "Test connection" asks again.
      .catch(() => {})
    return () => {
      current = false
    }
  }, [bridge, shop])

  const test = async () => {
    tested.current = true
    setTesting(true)
    try {
      const answer = await bridge.invoke('adminTestShopConnection', { shop })
      setConnection(answer)
      showToast(testOutcome(answer))
    } catch (error) {
      showToast({ tone: 'error', title: 'Error', message: failureReason(error) })
    } finally {
      setTesting(false)
    }
  }

  const look = connection && LOOK[connection.state]
  return (
    <Stack gap={4} align="flex-start">
      <Group gap="xs">
        {look ? (
          <Badge color={look.color} variant="light" style={{ flexShrink: 0 }}>
            {look.label}
          </Badge>
        ) : (
          <Text size="sm" c="dimmed">
            …
          </Text>
        )}
        <Button size="compact-xs" variant="default" loading={testing} onClick={() => void test()}>
          Test connection
        </Button>
      </Group>
      {connection?.method && (
        <Text size="xs" c="dimmed">
          {METHOD[connection.method]}
        </Text>
      )}
      {connection?.state === 'ERROR' && connection.message && (
        <Text size="xs" c="red" style={{ overflowWrap: 'anywhere' }}>
          {connection.message}
        </Text>
      )}
    </Stack>
  )
}

/** What a test found, in words: what Tandem reached and how, or what went wrong and the fix. */
function testOutcome(connection: ShopConnection): Toast {
  const name = storeName(connection.shop)
  if (connection.state === 'CONNECTED') {
    const how = connection.method ? ` by ${METHOD[connection.method]}` : ''
    const scopes = plural(connection.scopes.length, 'permission', 'permissions')
    return {
      title: 'Connected',
      message: `Tandem reached ${name} (${connection.shop}) on Shopify${how}, with ${scopes}, and registered its webhooks.`,
    }
  }
  return {
    tone: 'error',
    title: `Could not connect to ${name}`,
    message: connection.message ?? 'Shopify gave no reason: test the connection again.',
  }
}
