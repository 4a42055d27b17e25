import { Logger } from '@nestjs/common';

// Tests exercise failures on purpose; only real errors should reach the test output.
Logger.overrideLogger(['error', 'fatal']);
