import { useCallback, useState } from 'react'
import { ActionIcon, Drawer, Paper, Stack, Tabs, Text } from '@mantine/core'
import { IconBell } from '@tabler/icons-react'
import type { AuditEntry } from '@shared/contract'
import { PAGE_LIMIT } from '@shared/contract'
import { useBridge } from '@renderer/lib/bridge'
import { formatDateTime } from '@renderer/lib/format'
import { Paged } from '@renderer/lib/Paged'
import type { CursorPage } from '@renderer/lib/useCursorPages'
import { actionLabel, actorText, detailLines, targetText } from './activity-text'
import { DataRequests } from './DataRequests'
import classes from './ActivityDrawer.module.css'

/**
 * The header's notifications button (the specification shows it without behaviour): it opens the
 * audit log, newest first (docs/product-rules.md "The console's screens"), and beside it the
 * customers' data requests Shopify sent (docs/privacy.md).
 */
export function ActivityButton() {
  const [opened, setOpened] = useState(false)
  // Each opening reads the newest entries again rather than show what the last one read.
  const [openings, setOpenings] = useState(0)

  const open = () => {
    setOpenings((count) => count + 1)
    setOpened(true)
  }

  return (
    <>
      <ActionIcon variant="subtle" color="gray" size="lg" aria-label="Activity" onClick={open}>
        <IconBell size={20} stroke={1.75} />
      </ActionIcon>
      <Drawer
        opened={opened}
        onClose={() => setOpened(false)}
        title="Activity"
        position="right"
        size="md"
      >
        <Tabs defaultValue="changes" keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="changes">Changes</Tabs.Tab>
            <Tabs.Tab value="data-requests">Data requests</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="changes">
            <ActivityFeed key={openings} />
          </Tabs.Panel>
          <Tabs.Panel value="data-requests">
            <DataRequests key={openings} />
          </Tabs.Panel>
        </Tabs>
      </Drawer>
    </>
  )
}

function ActivityFeed() {
  const bridge = useBridge()
  const fetchPage = useCallback(
    async (cursor: string | undefined): Promise<CursorPage<AuditEntry>> => {
      const { entries, nextCursor } = await bridge.invoke('adminAuditLog', {
        ...(cursor === undefined ? {} : { cursor }),
        limit: PAGE_LIMIT.default,
      })
      return { items: entries, nextCursor }
    },
    [bridge],
  )

  // A short list, in a drawer: drawn whole, not virtualized, and read on with "Load more".
  return (
    <Paged fetchPage={fetchPage} empty="No activity yet.">
      {({ items }) => (
        <Stack component="ul" gap="sm" className={classes.list} aria-label="Activity entries">
          {items.map((entry, index) => (
            // Entries have no id; the log is newest first and only ever grows at its end here.
            <ActivityEntry key={`${entry.at}-${index}`} entry={entry} />
          ))}
        </Stack>
      )}
    </Paged>
  )
}

function ActivityEntry({ entry }: { entry: AuditEntry }) {
  const details = detailLines(entry.details, entry.action)
  return (
    <Paper component="li" withBorder p="sm" className={classes.entry}>
      <Text fw={600} size="sm">
        {actionLabel(entry.action, entry.details, entry.target)}
      </Text>
      <Text size="sm" className={classes.wrap} title={entry.target}>
        {targetText(entry.action, entry.target)}
      </Text>
      <Text size="xs" c="dimmed" className={classes.wrap}>
        {actorText(entry)} · <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
      </Text>
      {details.length > 0 && (
        <Stack component="ul" gap={0} mt={6} className={classes.details}>
          {details.map((detail) => (
            <Text component="li" key={detail} size="xs" className={classes.wrap}>
              {detail}
            </Text>
          ))}
        </Stack>
      )}
    </Paper>
  )
}
