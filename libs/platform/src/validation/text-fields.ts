import { IsEmail, IsString, Length, Matches, MaxLength } from 'class-validator';
import { PlainText } from './plain-text';

const NOT_BLANK = /\S/;

type FieldDecorator = (target: object, property: string) => void;

/** Several field decorators as one, applied in the order given. */
function stack(...decorators: FieldDecorator[]): FieldDecorator {
  return (target, property) => decorators.forEach((decorate) => decorate(target, property));
}

// Listed in the order stacked decorators run (bottom up), so the messages come out as before.

/** A required single-line text of `min` to `max` characters, not only white space (names). */
export const RequiredText = (max: number, min = 1) =>
  stack(PlainText(), Matches(NOT_BLANK, { message: 'must not be blank' }), Length(min, max), IsString());

/** An e-mail address of at most 254 characters (RFC 5321's path limit). */
export const EmailAddress = () =>
  stack(PlainText(), MaxLength(254), IsEmail({}, { message: 'must be an email address' }));
