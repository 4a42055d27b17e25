import { ApiException } from '@fleet/errors';
import { ValidationError, ValidationPipe } from '@nestjs/common';

function describe(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {});
    return [...(own.length ? [`${path}: ${own.join(', ')}`] : []), ...describe(error.children ?? [], path)];
  });
}

/** Request DTO validation for every route: a missing or unparsable value is a 422 naming the field. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    exceptionFactory: (errors) => ApiException.invalidInput(describe(errors).join('; ')),
  });
}
