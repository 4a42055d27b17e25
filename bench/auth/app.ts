/**
 * The service under test of bench/auth: the auth service exactly as apps/auth runs it, plus one bench
 * route, `GET /bench/companies`, that calls the same controller method (same service, same SQL, same
 * response) with a fixed principal, marked public and unlimited: the same app, framework and request
 * handling, only the pipeline (JWT, suspension, scope, rate limit) left out.
 */
import 'reflect-metadata';
import { AuthModule, CompaniesController, readAuthServiceConfig } from '@fleet/auth-service';
import { PageQuery, Principal, Public, RateLimit, readServiceConfig, runService } from '@fleet/platform';
import { Controller, DynamicModule, Get, Module, Query } from '@nestjs/common';

const principal: Principal = {
  subject: 'apikey:bench',
  companyId: Number(process.env.BENCH_COMPANY_ID),
  userId: 0,
  timeZone: 'Europe/Berlin',
};

@Controller('bench')
@Public()
@RateLimit(false)
class BareCompaniesController {
  constructor(private readonly companies: CompaniesController) {}

  @Get('companies')
  list(@Query() query: PageQuery) {
    return this.companies.list(principal, query);
  }
}

function benchModule(auth: DynamicModule): DynamicModule {
  @Module({})
  class BenchModule {}
  return {
    module: BenchModule,
    imports: [auth],
    controllers: [BareCompaniesController],
    providers: [CompaniesController],
  };
}

void runService(
  'auth',
  (env) => ({
    ...readServiceConfig('auth', env, { httpPort: 3001 }),
    authService: readAuthServiceConfig(env),
  }),
  (config) => {
    const auth = AuthModule.forRoot(config.authService);
    return [auth, benchModule(auth)];
  },
);
