import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { ProblemException } from '../problem/problem.filter';
import { problem } from '../problem/problem';

/**
 * class-validator errors as `[{field, message}]`, one entry per field, nested fields as dotted
 * paths (`a.b[2].c`). A field that fails several constraints is reported once: an unknown field
 * as "is not a known field", a missing one as "is required", otherwise by its first-declared
 * (topmost) decorator, which by convention is the type check (class-validator lists constraints
 * bottom-up). Messages do not repeat the field name, which is already in `field`.
 */
export function flattenValidationErrors(
  errors: ValidationError[],
  parent = '',
): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = [];
  const seen = new Set<string>();
  const add = (entry: { field: string; message: string }) => {
    if (seen.has(entry.field)) return;
    seen.add(entry.field);
    out.push(entry);
  };
  for (const error of errors) {
    const field = /^\d+$/.test(error.property)
      ? `${parent}[${error.property}]`
      : parent
        ? `${parent}.${error.property}`
        : error.property;
    const message = fieldMessage(error);
    if (message !== null) add({ field, message });
    if (error.children?.length) flattenValidationErrors(error.children, field).forEach(add);
  }
  return out;
}

function fieldMessage(error: ValidationError): string | null {
  const constraints = error.constraints ?? {};
  const names = Object.keys(constraints);
  if (names.length === 0) return null;
  if ('whitelistValidation' in constraints) return 'is not a known field';
  if (error.value === undefined) return 'is required';
  const message = constraints[names[names.length - 1]];
  return message.startsWith(`${error.property} `) ? message.slice(error.property.length + 1) : message;
}

export function validationProblem(errors: { field: string; message: string }[], detail?: string) {
  return new ProblemException(
    problem(400, 'validation_error', detail ?? errors.map((e) => `${e.field} ${e.message}`).join('; '), {
      errors,
    }),
  );
}

/**
 * Every body and query DTO goes through this: unknown fields are 400 (CONTRACT §7), values are
 * never coerced (a number where a decimal string is due is 400, not "fixed"), and the problem
 * body lists each field with its message.
 */
export function createValidationPipe(): ValidationPipe {
  return new ProblemValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validateCustomDecorators: false,
    exceptionFactory: (errors) => validationProblem(flattenValidationErrors(errors)),
  });
}

class ProblemValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const dtoBody = metadata.type === 'body' && metadata.metatype && this.toValidate(metadata);
    // No body at all reads as `{}`: its required fields are then named one by one, and a body
    // whose fields are all optional may be left out.
    if (dtoBody && value === undefined) return super.transform({}, metadata);
    // A DTO body must be a JSON object: an array, a string or `null` is refused plainly.
    if (dtoBody && (value === null || typeof value !== 'object' || Array.isArray(value))) {
      throw validationProblem(
        [{ field: 'body', message: 'must be a JSON object' }],
        'the request body must be a JSON object',
      );
    }
    return super.transform(value, metadata);
  }
}
