import { ApiException } from '@fleet/errors';
import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { inputProblem } from './inputs';

function describe(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {});
    return [...(own.length ? [`${path}: ${own.join(', ')}`] : []), ...describe(error.children ?? [], path)];
  });
}

/**
 * Request validation for every route: a value with a control character (NUL above all, which
 * PostgreSQL cannot store) or nested deeper than any route reads is refused before anything reads
 * it, whatever the route's DTO says; then the DTO's rules. Either way a 422 naming the field.
 */
class RequestValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'custom') {
      const problem = inputProblem(value, metadata.type === 'param' ? (metadata.data ?? '') : '');
      if (problem !== undefined) throw ApiException.invalidInput(problem);
    }
    return super.transform(value, metadata);
  }
}

export function createValidationPipe(): ValidationPipe {
  return new RequestValidationPipe({
    transform: true,
    // A value read as missing (an empty one) leaves the DTO's default in place.
    transformOptions: { exposeUnsetFields: false },
    whitelist: true,
    exceptionFactory: (errors) => ApiException.invalidInput(describe(errors).join('; ')),
  });
}
