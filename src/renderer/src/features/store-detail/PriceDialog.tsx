import { useState, type FormEvent } from 'react'
import { Button, Group, Modal, Stack, Text } from '@mantine/core'
import type { CatalogListing } from '@shared/contract'
import { RefusalAlert } from '@renderer/app/RefusalAlert'
import { useOnOpening } from '@renderer/app/useOnOpening'
import { listingPrice } from './listing-words'
import { PriceInput, readPrice } from './PriceInput'

interface PriceDialogProps {
  /** The listing whose price is asked for; null while the dialog is closed. */
  listing: CatalogListing | null
  busy: boolean
  /** The server's sentence when it refused the price (below the brand's, say). */
  refusal: string | null
  onCancel: () => void
  /** The price to sell at, or null for the brand's own. */
  onSubmit: (price: string | null) => void
  onEdit: () => void
}

/** Sets a listing's price above the brand's, or clears it back to the brand's price. */
export function PriceDialog({
  listing,
  busy,
  refusal,
  onCancel,
  onSubmit,
  onEdit,
}: PriceDialogProps) {
  const [text, setText] = useState('')
  const [invalid, setInvalid] = useState<string | null>(null)
  // Each opening starts from the listing's own price; closing, the dialog keeps its words as it
  // fades out.
  const [shown, setShown] = useState<CatalogListing | null>(null)
  const opened = listing !== null
  useOnOpening(opened, () => {
    setShown(listing)
    setText(listing?.price ?? '')
    setInvalid(null)
  })

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (busy) return
    const read = readPrice(text)
    if ('invalid' in read) setInvalid(read.invalid)
    else onSubmit(read.price)
  }

  const title = 'Set price'
  return (
    <Modal opened={opened} onClose={onCancel} title={title}>
      <form onSubmit={submit} aria-label={title} noValidate>
        {shown && (
          <Text size="sm" mb="sm">
            {shown.title} sells at {listingPrice(shown)} now.
          </Text>
        )}
        <Stack gap="sm">
          <PriceInput
            label="Price"
            value={text}
            onChange={(value) => {
              setText(value)
              setInvalid(null)
              onEdit()
            }}
            currency={shown?.currency ?? null}
            error={invalid}
          />
          <RefusalAlert refusal={refusal} mb={0} />
        </Stack>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Save price
          </Button>
        </Group>
      </form>
    </Modal>
  )
}
