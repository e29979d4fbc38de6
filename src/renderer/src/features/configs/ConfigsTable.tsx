import { ConfirmDialog } from '@renderer/app/ConfirmDialog'
import { useState } from 'react'
import {
  ActionIcon,
  Button,
  Card,
  Group,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core'
import { useMediaQuery } from '@mantine/hooks'
import { IconTrash } from '@tabler/icons-react'
import type { AppConfigView } from '@shared/ipc'
import { errorMessage, useBridge } from '@renderer/lib/bridge'
import { showToast } from '@renderer/lib/toast'
import { useWrite } from '@renderer/lib/useWrite'
import { StoreTypeBadge } from '@renderer/features/stores/StoreTypeBadge'
import { RefusalAlert } from '@renderer/app/RefusalAlert'
import { ShopConnectionCell } from './ShopConnectionCell'

/**
 * Below this width (the md breakpoint) six columns do not fit beside the sidebar: the shop's
 * client ID, secret and type fold into its cell (the tab already says the type), so that
 * Connection and Delete stay in view without scrolling sideways.
 */
const NARROW = '(max-width: 61.99em)'

interface ConfigsTableProps {
  configs: AppConfigView[]
  /** What the tab says when it has no config. */
  empty: string
  onDeleted: (shop: string) => void
}

/**
 * The table "App Configurations" (docs/product-rules.md "The console's screens"): the configs of
 * one shop type, each to delete, with its shop's connection (docs/integrations.md "Shopify").
 */
export function ConfigsTable({ configs, empty, onDeleted }: ConfigsTableProps) {
  const bridge = useBridge()
  const narrow = useMediaQuery(NARROW) ?? false
  const [confirming, setConfirming] = useState<AppConfigView | null>(null)
  // One delete per shop, several at once; its refusal is the server's sentence when a delete failed
  // (docs/product-rules.md "Deliberate departures from the specification": the row stays, and says
  // why).
  const deletion = useWrite({
    success: { title: 'Success', message: 'App config deleted successfully' },
    failure: { title: 'Error', message: 'Failed to delete app config' },
  })

  const remove = async ({ shop }: AppConfigView) => {
    setConfirming(null)
    deletion.clearRefusal()
    if (!shop) {
      showToast({ tone: 'error', title: 'Error', message: 'Shop is required' })
      return
    }
    const deleted = await deletion.run(() => bridge.invoke('deleteAppConfig', { shop }), shop)
    if (deleted) onDeleted(shop)
  }

  return (
    <Card withBorder padding="lg">
      <Title order={2} size="h4" mb="md">
        App Configurations
      </Title>
      <RefusalAlert refusal={deletion.refusal} mb="md" />
      {configs.length === 0 ? (
        <Text c="dimmed">{empty}</Text>
      ) : (
        <Table.ScrollContainer minWidth={narrow ? 0 : 880}>
          <Table verticalSpacing={narrow ? 'sm' : undefined}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Shop</Table.Th>
                {!narrow && (
                  <>
                    <Table.Th>Client ID</Table.Th>
                    <Table.Th>Client secret</Table.Th>
                    <Table.Th style={{ whiteSpace: 'nowrap' }}>Shop type</Table.Th>
                  </>
                )}
                <Table.Th w={narrow ? 200 : 250}>Connection</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Delete</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {configs.map((config) => (
                <Table.Tr key={config.shop}>
                  {narrow ? (
                    <Table.Td>
                      <FoldedShop config={config} />
                    </Table.Td>
                  ) : (
                    <>
                      <Table.Td>{config.shop}</Table.Td>
                      <Table.Td>{config.clientId}</Table.Td>
                      <Table.Td>
                        <ClientSecret config={config} />
                      </Table.Td>
                      <Table.Td>
                        <StoreTypeBadge shopType={config.shopType} />
                      </Table.Td>
                    </>
                  )}
                  <Table.Td>
                    <ShopConnectionCell shop={config.shop} />
                  </Table.Td>
                  <Table.Td ta="right">
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Delete ${config.shop}`}
                      loading={deletion.isBusy(config.shop)}
                      onClick={() => setConfirming(config)}
                    >
                      <IconTrash size={18} stroke={1.75} />
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ConfirmDialog
        confirmLabel="Delete"
        title="Delete app config"
        question={
          confirming === null
            ? null
            : `Delete the app config of ${confirming.shop}? Its client ID and client secret will be removed.`
        }
        onCancel={() => setConfirming(null)}
        onConfirm={() => confirming && void remove(confirming)}
      />
    </Card>
  )
}

/** The shop's cell of a narrow table: the shop, then its client ID and secret, each labelled. */
function FoldedShop({ config }: { config: AppConfigView }) {
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
        {config.shop}
      </Text>
      <div>
        <Text size="xs" c="dimmed">
          Client ID
        </Text>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {config.clientId}
        </Text>
      </div>
      <div>
        <Text size="xs" c="dimmed">
          Client secret
        </Text>
        <ClientSecret config={config} />
      </div>
    </Stack>
  )
}

/**
 * The secret is masked (docs/product-rules.md "Deliberate departures from the specification"); the
 * whole of it reaches the renderer only when a person asks to see it, and a copy goes from main to
 * the clipboard without passing through here at all.
 */
function ClientSecret({ config }: { config: AppConfigView }) {
  const bridge = useBridge()
  const [revealed, setRevealed] = useState<string | null>(null)
  const [revealing, setRevealing] = useState(false)

  const toggle = async () => {
    if (revealed !== null) {
      setRevealed(null)
      return
    }
    setRevealing(true)
    try {
      setRevealed(await bridge.invoke('configs/revealSecret', { shop: config.shop }))
    } catch (error) {
      showToast({ tone: 'error', title: 'Error', message: errorMessage(error) })
    } finally {
      setRevealing(false)
    }
  }

  const copy = async () => {
    try {
      await bridge.invoke('configs/copySecret', { shop: config.shop })
      showToast({
        title: 'Client secret copied',
        message: 'The client secret has been copied to your clipboard.',
      })
    } catch (error) {
      showToast({ tone: 'error', title: 'Error', message: errorMessage(error) })
    }
  }

  if (config.secretError) {
    return (
      <Text size="xs" c="red" style={{ overflowWrap: 'anywhere' }}>
        {config.secretError}
      </Text>
    )
  }

  return (
    // Its buttons go below the secret when the column is narrow, rather than be cut off.
    <Group gap="xs">
      <Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
        {revealed ?? config.maskedClientSecret}
      </Text>
      <Button size="compact-xs" variant="default" loading={revealing} onClick={() => void toggle()}>
        {revealed === null ? 'Reveal' : 'Hide'}
      </Button>
      <Button size="compact-xs" variant="default" onClick={() => void copy()}>
        Copy
      </Button>
    </Group>
  )
}
