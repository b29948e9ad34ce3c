import { registerDecorator, type ValidationOptions } from 'class-validator';

/**
 * A field a caller may not send here (e.g. an operator-managed setting in a partner's update):
 * present with any value, even null, it is a 400 naming the field and why.
 */
export function Refused(message: string, options: ValidationOptions = {}) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'refused',
      target: target.constructor,
      propertyName,
      options: { message, ...options },
      validator: {
        validate: (value: unknown) => value === undefined,
      },
    });
}
