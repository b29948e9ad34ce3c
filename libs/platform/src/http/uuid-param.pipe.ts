import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { UUID } from '../validation/uuid';
import { validationProblem } from '../validation/validation.pipe';

/** A path id that is not a UUID is a malformed request (400), not a missing record (404). */
@Injectable()
export class UuidParam implements PipeTransform<string, string> {
  transform(value: string, metadata: ArgumentMetadata): string {
    if (!UUID.test(value)) {
      throw validationProblem([{ field: metadata.data ?? 'id', message: 'must be a UUID' }]);
    }
    return value.toLowerCase();
  }
}
