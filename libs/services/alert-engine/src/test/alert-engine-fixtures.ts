import { EnvReader } from '@fleet/platform';
import { AlertEngineModule } from '../alert-engine.module';
import { readAlertEngineConfig } from '../alert-engine.config';

/** alert-engine's modules for a test context, configured from the context's environment. */
export const alertEngineModules = (env: EnvReader) => [AlertEngineModule.forRoot(readAlertEngineConfig(env))];
