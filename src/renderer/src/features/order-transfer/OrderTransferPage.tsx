import { Text } from '@mantine/core'
import { PageHeading } from '@renderer/app/PageHeading'

/** /main/create-order-transfer: a stand-in until the transfer screen is built. */
export default function OrderTransferPage() {
  return (
    <>
      <PageHeading>Create Order Transfer</PageHeading>
      <Text c="dimmed">Creator orders will be previewed and transferred here.</Text>
    </>
  )
}
