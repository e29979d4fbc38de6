import { useCallback, useId, useState, type FormEvent } from 'react'
import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core'
import { PRODUCT_NAME } from '@shared/product'
import { useBridge } from '@renderer/lib/bridge'
import { useWrite } from '@renderer/lib/useWrite'
import { LoadFailure } from '@renderer/app/LoadFailure'
import { RateInput } from './RateInput'
import { defaultRatesSumError, readRate } from './rates'
import { useRemote } from '@renderer/lib/useRemote'
import { RefusalAlert } from '@renderer/app/RefusalAlert'

/** A brand's page: its default commission, as the server has it, to change. */
export function BrandCommission({ shop }: { shop: string }) {
  const bridge = useBridge()
  const load = useCallback(
    () => bridge.invoke('adminGetDefaultShopCommissionRate', { shop }),
    [bridge, shop],
  )
  const { remote, retry, update } = useRemote(load)
  const headingId = useId()

  return (
    <Card withBorder padding="lg" maw={480}>
      <Title order={2} size="h4" mb="md" id={headingId}>
        Default commission
      </Title>
      {remote.status === 'loading' && <Text c="dimmed">Loading...</Text>}
      {remote.status === 'failed' && <LoadFailure message={remote.message} onRetry={retry} />}
      {remote.status === 'ready' && (
        <Stack>
          {/* Transfers of its orders are refused until it has one (docs/product-rules.md). */}
          {remote.value.tandemCommissionRate === null && (
            <Alert color="yellow" variant="light" title="No default commission">
              This brand has no default commission: transfers of orders with its products fail with
              &quot;Commission not found&quot; until both rates are set and saved here.
            </Alert>
          )}
          <DefaultCommissionForm
            shop={shop}
            headingId={headingId}
            // A brand without a default yet answers nulls: the inputs start empty.
            initialTandem={String(remote.value.tandemCommissionRate ?? '')}
            initialCreator={String(remote.value.creatorCommissionRate ?? '')}
            onSaved={(saved) => update(() => saved)}
          />
        </Stack>
      )}
    </Card>
  )
}

interface DefaultCommissionFormProps {
  shop: string
  /** The card's heading, which names the form. */
  headingId: string
  initialTandem: string
  initialCreator: string
  /** The rates the server stored, for the card's warning to go once the brand has them. */
  onSaved: (saved: { tandemCommissionRate: number; creatorCommissionRate: number }) => void
}

function DefaultCommissionForm({
  shop,
  headingId,
  initialTandem,
  initialCreator,
  onSaved,
}: DefaultCommissionFormProps) {
  const bridge = useBridge()
  const [tandemInput, setTandemInput] = useState(initialTandem)
  const [creatorInput, setCreatorInput] = useState(initialCreator)
  // Its refusal is the server's sentence when it refused the rates; a toast alone would vanish
  // before it is read.
  const write = useWrite({
    success: { title: 'Success', message: 'Default Commission rates set successfully.' },
    failure: { title: 'Failed', message: 'Default Commission rates failed to set.' },
  })

  const tandem = readRate(tandemInput)
  const creator = readRate(creatorInput)
  const sumError = defaultRatesSumError(shop, tandem, creator)

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (tandem === null || creator === null || sumError !== null) return
    const answer = await write.run(() =>
      bridge.invoke('adminSetDefaultCommissionRate', {
        defaultCommission: {
          brandStoreShop: shop,
          tandemCommissionRate: tandem,
          creatorCommissionRate: creator,
        },
      }),
    )
    if (!answer) return
    // What the server stored, which is what a reload would show.
    setTandemInput(String(answer.defaultCommission.tandemCommissionRate))
    setCreatorInput(String(answer.defaultCommission.creatorCommissionRate))
    onSaved(answer.defaultCommission)
  }

  const edit = (setInput: (value: string) => void) => (value: string) => {
    setInput(value)
    write.clearRefusal()
  }

  return (
    <form aria-labelledby={headingId} onSubmit={(event) => void save(event)}>
      <Stack>
        <RateInput
          label={`${PRODUCT_NAME} commission rate`}
          value={tandemInput}
          onChange={edit(setTandemInput)}
        />
        <RateInput
          label="Creator commission rate"
          value={creatorInput}
          onChange={edit(setCreatorInput)}
          error={sumError}
        />
        <RefusalAlert refusal={write.refusal} />
        <Group justify="flex-end">
          <Button
            type="submit"
            // Save is disabled while either rate is empty (docs/product-rules.md), and also while one is invalid.
            disabled={tandem === null || creator === null || sumError !== null}
            loading={write.busy}
          >
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
