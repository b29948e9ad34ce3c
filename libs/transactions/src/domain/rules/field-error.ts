/**
 * One broken rule of a request body: `field` is the snake_case dotted path as sent on the wire
 * (`level3_data.line_items[2].total_amount`), `message` reads after it and does not repeat it.
 * The HTTP layer lists these as `errors` in a 400 `validation_error` (CONTRACT §7).
 */
export interface FieldError {
  field: string;
  message: string;
}
