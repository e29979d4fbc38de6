import { Text } from '@mantine/core'
import { PageHeading } from '@renderer/app/PageHeading'

/** /main/stores: a stand-in until the store list is built. */
export default function StoresPage() {
  return (
    <>
      <PageHeading>Stores</PageHeading>
      <Text c="dimmed">The brand and creator stores will be listed here.</Text>
    </>
  )
}
