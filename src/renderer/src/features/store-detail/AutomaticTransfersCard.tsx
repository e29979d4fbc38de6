import { useCallback, useId, useState } from 'react'
import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core'
import type { BrandPause } from '@shared/contract'
import { Fields } from '@renderer/app/Fields'
import { LoadFailure } from '@renderer/app/LoadFailure'
import { ReasonDialog } from '@renderer/app/ReasonDialog'
import { RefusalAlert } from '@renderer/app/RefusalAlert'
import { useBridge } from '@renderer/lib/bridge'
import { formatDateTime, storeName } from '@renderer/lib/format'
import { useRemote } from '@renderer/lib/useRemote'
import { useWrite } from '@renderer/lib/useWrite'

/**
 * A brand's page: whether automatic transfers leave its orders (a pause, with its reason, by whom
 * and since when), with Pause and Resume (docs/product-rules.md "Automatic transfers", "Holds").
 * The server audits both.
 */
export function AutomaticTransfersCard({ shop }: { shop: string }) {
  const bridge = useBridge()
  const load = useCallback(() => bridge.invoke('adminBrandPause', { shop }), [bridge, shop])
  const { remote, retry, update } = useRemote(load)
  const headingId = useId()
  const [asking, setAsking] = useState(false)
  const pauseWrite = useWrite({
    success: { title: 'Success', message: 'Automatic transfers paused.' },
    failure: (message) => ({ title: 'Failed to pause automatic transfers', message }),
  })
  const resumeWrite = useWrite({
    success: { title: 'Success', message: 'Automatic transfers resumed.' },
    failure: (message) => ({ title: 'Failed to resume automatic transfers', message }),
  })

  const pause = async (reason: string) => {
    const paused = await pauseWrite.run(() => bridge.invoke('adminPauseBrand', { shop, reason }))
    if (!paused) return
    update(() => ({ pause: paused }))
    setAsking(false)
  }

  const resume = async () => {
    const resumed = await resumeWrite.run(() => bridge.invoke('adminResumeBrand', { shop }))
    if (resumed) update(() => ({ pause: null }))
  }

  return (
    <Card withBorder padding="lg" maw={480} component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" mb="md" id={headingId}>
        Automatic transfers
      </Title>
      {remote.status === 'loading' && <Text c="dimmed">Loading...</Text>}
      {remote.status === 'failed' && <LoadFailure message={remote.message} onRetry={retry} />}
      {remote.status === 'ready' && (
        <Stack>
          {remote.value.pause ? (
            <PauseSummary pause={remote.value.pause} />
          ) : (
            <Group gap="sm">
              <Badge variant="light" color="green">
                Running
              </Badge>
              <Text size="sm">Orders of this brand transfer as the transfer policy says.</Text>
            </Group>
          )}
          <RefusalAlert refusal={resumeWrite.refusal} mb={0} />
          <Group justify="flex-end">
            {remote.value.pause ? (
              <Button variant="default" loading={resumeWrite.busy} onClick={() => void resume()}>
                Resume
              </Button>
            ) : (
              <Button
                color="red"
                variant="light"
                onClick={() => {
                  resumeWrite.clearRefusal()
                  setAsking(true)
                }}
              >
                Pause automatic transfers
              </Button>
            )}
          </Group>
        </Stack>
      )}
      <ReasonDialog
        opened={asking}
        title="Pause automatic transfers"
        submitLabel="Pause"
        busy={pauseWrite.busy}
        refusal={pauseWrite.refusal}
        onCancel={() => {
          pauseWrite.clearRefusal()
          setAsking(false)
        }}
        onSubmit={(reason) => void pause(reason)}
      >
        Automatic transfers will leave the orders of {storeName(shop)} until you resume them; an
        administrator can still process one. The activity log keeps your reason.
      </ReasonDialog>
    </Card>
  )
}

/** The pause as the server keeps it: why, by whom and since when. */
function PauseSummary({ pause }: { pause: BrandPause }) {
  return (
    <Stack gap="sm">
      <Group>
        <Badge variant="light" color="orange">
          Paused
        </Badge>
      </Group>
      <Fields
        cols={1}
        fields={[
          ['Reason', pause.reason],
          ['Paused by', pause.pausedBy ?? 'an administrator'],
          ['Since', formatDateTime(pause.pausedAt)],
        ]}
      />
    </Stack>
  )
}
