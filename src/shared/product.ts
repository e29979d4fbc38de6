/** The product's name, in one place: UI texts, window title, receipt, order tag. */
export const PRODUCT_NAME = 'Tandem'
/** Lower-case form used in tags and the `tandem…` field names of the API. */
export const PRODUCT_KEY = 'tandem'
export const CONSOLE_NAME = `${PRODUCT_NAME} Admin`
