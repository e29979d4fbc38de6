/**
 * An error whose message is written for a person and may cross to the renderer as it is.
 * `reason` is the bare cause ("Commission not found") when the message wraps it
 * ("Failed to fetch preview: Commission not found").
 */
export class UserFacingError extends Error {
  constructor(
    message: string,
    readonly reason?: string,
  ) {
    super(message)
    this.name = 'UserFacingError'
  }
}
