import { Alert, type AlertProps } from '@mantine/core'

interface RefusalAlertProps extends Pick<AlertProps, 'mb'> {
  /** The server's sentence when it refused a change, or null while there is none to show. */
  refusal: string | null
}

/** Why the server refused a save or delete, beside the form or table that asked for it. */
export function RefusalAlert({ refusal, mb }: RefusalAlertProps) {
  if (refusal === null) return null
  return (
    <Alert color="red" variant="light" mb={mb}>
      {refusal}
    </Alert>
  )
}
