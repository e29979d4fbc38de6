import { Alert, Button } from '@mantine/core'

/**
 * A load that failed: its message and a way to try again (docs/product-rules.md "Deliberate
 * departures from the specification": never an empty stand-in).
 */
export function LoadFailure({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <Alert color="red" variant="light" maw={640}>
      {message}
      <Button display="block" mt="sm" size="xs" variant="default" onClick={onRetry}>
        Retry
      </Button>
    </Alert>
  )
}
