import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { ProblemException } from '../problem/problem.filter';
import { problem } from '../problem/problem';

/** class-validator errors as `[{field, message}]`, nested fields as dotted paths (`a.b[2].c`). */
export function flattenValidationErrors(
  errors: ValidationError[],
  parent = '',
): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = [];
  for (const error of errors) {
    const field = /^\d+$/.test(error.property)
      ? `${parent}[${error.property}]`
      : parent
        ? `${parent}.${error.property}`
        : error.property;
    for (const message of Object.values(error.constraints ?? {})) {
      out.push({
        field,
        message: message.replace(/^property (\S+) should not exist$/, 'is not a known field'),
      });
    }
    if (error.children?.length) out.push(...flattenValidationErrors(error.children, field));
  }
  return out;
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
    // A DTO body must be a JSON object: an array, a string or no body at all is refused plainly.
    if (
      metadata.type === 'body' &&
      metadata.metatype &&
      this.toValidate(metadata) &&
      (value === null || typeof value !== 'object' || Array.isArray(value))
    ) {
      throw validationProblem(
        [{ field: 'body', message: 'must be a JSON object' }],
        'the request body must be a JSON object',
      );
    }
    return super.transform(value, metadata);
  }
}
